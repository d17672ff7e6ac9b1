"""Typos in short queries, matched on word forms as typed (find.typos)."""

from pinchtab.find import ElementIndex, find

PAGE = [
    {"ref": "e0", "role": "spinbutton", "name": "Servings"},
    {"ref": "e1", "role": "button", "name": "Checkout"},
    {"ref": "e2", "role": "searchbox", "name": "Search"},
    {"ref": "e3", "role": "link", "name": "Shipping policy"},
    {"ref": "e4", "role": "button", "name": "Receipts"},
]


def test_misspelt_word_whose_stem_misleads():
    # "serings" stems to "ser", "servings" to "serv": only the typed forms are a typo apart
    assert find("serings", PAGE)["best_ref"] == "e0"
    assert find("reciepts", PAGE)["best_ref"] == "e4"


def test_short_query_typos():
    assert find("chekout", PAGE)["best_ref"] == "e1"
    assert find("sreach field", PAGE)["best_ref"] == "e2"


def test_real_words_are_not_fuzzed_into_page_words():
    idx = ElementIndex(PAGE)
    assert idx.find("book a flight")["best_ref"] == ""
    assert idx.find("weather")["best_ref"] == ""


def test_a_real_word_a_letter_away_is_not_a_typo():
    page = [{"ref": "e0", "role": "textbox", "name": "Name"}, {"ref": "e1", "role": "button", "name": "Look up"}]
    assert find("same", page)["best_ref"] == ""
