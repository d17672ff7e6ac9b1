"""A role word beats a control of another kind named by the query's other words (find.role_word)."""

from pinchtab.find import find

# Flask-Admin's list view: a search form whose field says only what it searches
CUSTOMERS = [
    {"ref": "e0", "role": "heading", "name": "Customer"},
    {"ref": "e1", "role": "search", "name": "", "interactive": False, "heading": "Customer"},
    {"ref": "e2", "role": "textbox", "name": "name, email", "section": "Search", "heading": "Customer"},
    {"ref": "e3", "role": "button", "name": "Search", "section": "Search", "heading": "Customer"},
    {"ref": "e4", "role": "link", "name": "Create", "heading": "Customer"},
]


def test_the_field_the_words_place_beats_the_button_they_name():
    assert find("search field", CUSTOMERS)["best_ref"] == "e2"
    assert find("search box", CUSTOMERS)["best_ref"] == "e2"


def test_the_button_stays_when_the_role_word_names_it():
    assert find("search button", CUSTOMERS)["best_ref"] == "e3"
    assert find("search", CUSTOMERS)["best_ref"] == "e3"

