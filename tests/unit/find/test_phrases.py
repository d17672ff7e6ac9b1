"""Query phrases and verbs: a phrase that means nothing on the page falls back on its word;
verb-and-particle phrases ("turn off") and "change" say what to do, not which element."""

from pinchtab.find import find

PAGE = [
    {"ref": "e0", "role": "button", "name": "Save and finish later"},
    {"ref": "e1", "role": "button", "name": "Submit application"},
    {"ref": "e2", "role": "link", "name": "Log in"},
    {"ref": "e3", "role": "textbox", "name": "Newsletter sign-up"},
]


def test_phrase_with_one_content_word_falls_back_on_it():
    # "save as" (a download phrase) is not on the page: its word "save" still is
    assert find("save as draft", PAGE)["best_ref"] == "e0"


def test_phrase_on_the_page_keeps_its_meaning():
    # "sign in" means log in; its word "sign" must not pull "sign-up" ahead
    assert find("sign in", PAGE)["best_ref"] == "e2"


SETTINGS = [
    {"ref": "e0", "role": "button", "name": "EN · USD"},
    {"ref": "e1", "role": "button", "name": "Change", "section": "Account"},
    {"ref": "e2", "role": "link", "name": "Flights"},
    {"ref": "e3", "role": "switch", "name": "Targeted advertising", "checked": True},
    {"ref": "e4", "role": "switch", "name": "Analytics", "checked": True},
]


def test_change_is_a_verb_the_object_decides():
    assert find("change currency", SETTINGS)["best_ref"] == "e0"
    # an object the page lacks: a bare "Change" button is not it
    assert find("change language", SETTINGS)["best_ref"] == ""


def test_turn_off_phrase_is_only_a_verb():
    res = find("turn off marketing", SETTINGS, explain=True)
    assert res["best_ref"] == "e3"


def test_file_input_is_an_upload():
    page = [
        {"ref": "e0", "role": "button", "name": "Resume/CV *: No file chosen", "type": "file"},
        {"ref": "e1", "role": "textbox", "name": "Cover letter"},
        {"ref": "e2", "role": "button", "name": "Apply"},
    ]
    assert find("upload my CV", page)["best_ref"] == "e0"


def test_overlapping_phrases_of_one_meaning_are_one_unit():
    from pinchtab.find.text.lexical import query_units
    assert [u.text for u in query_units("play audio version")] == ["play audio version"]
    page = [
        {"ref": "e0", "role": "button", "name": "Listen to this article, 6 minutes"},
        {"ref": "e1", "role": "button", "name": "Close"},
        {"ref": "e2", "role": "link", "name": "Opinion"},
    ]
    assert find("play audio version", page)["best_ref"] == "e0"


def test_a_dark_mode_toggle_is_the_theme_switch():
    els = [
        {"ref": "e0", "role": "link", "name": "View site"},
        {"ref": "e1", "role": "button", "name": "Toggle theme (current theme: auto)"},
        {"ref": "e2", "role": "link", "name": "Log out"},
    ]
    assert find("dark mode toggle", els)["best_ref"] == "e1"


def test_every_is_all_unless_it_names_a_period():
    page = [
        {"ref": "e0", "role": "link", "name": "Customer", "section": "Navigation"},
        {"ref": "e1", "role": "checkbox", "name": "Select all records"},
        {"ref": "e2", "role": "checkbox", "name": "Select record", "parent": "Alice Moreau"},
    ]
    assert find("select every customer", page)["best_ref"] == "e1"
    billing = [
        {"ref": "e0", "role": "radio", "name": "Monthly"},
        {"ref": "e1", "role": "radio", "name": "All plans"},
    ]
    assert find("bill me every month", billing)["best_ref"] == "e0"


def test_arrow_is_what_an_icon_control_looks_like():
    # Django's dual-list arrows: their words pushed out of the box, a drawn arrow instead
    page = [
        {"ref": "e0", "role": "listbox", "name": "Chosen groups",
         "description": 'Remove groups by selecting them and then select the "Remove" arrow button.'},
        {"ref": "e1", "role": "button", "name": "Choose selected groups", "description": "moves to Chosen groups",
         "icon": True},
        {"ref": "e2", "role": "button", "name": "Remove selected groups", "description": "moves to Available groups",
         "icon": True},
    ]
    assert find("arrow that moves the selected group into chosen", page)["best_ref"] == "e1"


def test_a_day_past_the_ordinals_is_its_number():
    calendar = [{"ref": f"e{d}", "role": "button", "name": str(d)} for d in range(1, 29)]
    assert find("pick the 15th", calendar)["best_ref"] == "e15"
