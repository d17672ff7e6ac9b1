"""Turning something on or off (find.toggle): the toggle for the thing, not the thing's tab."""

from pinchtab.find import find
from pinchtab.find.passes.toggle import parse
from pinchtab.find.text.lexical import stem

HOME = [
    {"ref": "e0", "role": "tab", "name": "Kitchen", "parent": "Rooms"},
    {"ref": "e1", "role": "tab", "name": "Living room", "parent": "Rooms"},
    {"ref": "e2", "role": "heading", "name": "Kitchen pendants"},
    {"ref": "e3", "role": "switch", "name": "Kitchen pendants", "heading": "Kitchen pendants", "checked": True},
    {"ref": "e4", "role": "heading", "name": "Living room ceiling light"},
    {"ref": "e5", "role": "switch", "name": "Living room ceiling light", "heading": "Living room ceiling light",
     "checked": False},
    {"ref": "e6", "role": "button", "name": "Settings"},
]


def test_parse():
    assert parse("turn off the kitchen lights") == ("kitchen", "light")
    assert parse("switch the alarm on") == ("alarm",)
    assert parse("disable notifications") == (stem("notifications"),)
    assert parse("switch to dark mode") is None  # a choice, not on or off
    assert parse("open the kitchen") is None
    assert parse("turn off") is None  # nothing named


def test_the_toggle_of_the_named_thing_beats_its_tab():
    assert find("turn the kitchen tab", HOME)["best_ref"] == "e0"  # no on/off: the tab
    assert find("turn off the kitchen lights", HOME)["best_ref"] == "e3"
    assert find("switch the kitchen off", HOME)["best_ref"] == "e3"


def test_a_toggle_must_cover_what_the_best_match_covers():
    # "light" alone is the living room's switch, but the best match (Kitchen) names "kitchen",
    # which only the kitchen's switch covers; the living room's switch is not taken over it
    res = find("turn off the kitchen lights", HOME, top_k=3)
    assert res["matches"][0]["ref"] == "e3"
    assert find("turn on the living room light", HOME)["best_ref"] == "e5"


def test_no_toggle_on_the_page_leaves_scores_alone():
    page = [e for e in HOME if e["role"] != "switch"]
    assert find("turn off the kitchen lights", page)["best_ref"] == "e0"


# an admin change list: each row opens with its selection box, then the object's link
ROWS = [
    {"ref": "e0", "role": "checkbox", "name": "Select all objects on this page for an action"},
    {"ref": "e1", "role": "checkbox", "name": "Select this object for an action - bob", "checked": False},
    {"ref": "e2", "role": "link", "name": "bob"},
    {"ref": "e3", "role": "checkbox", "name": "Select this object for an action - dana", "checked": False},
    {"ref": "e4", "role": "link", "name": "dana"},
    {"ref": "e5", "role": "radio", "name": "Weekly"},
    {"ref": "e6", "role": "radio", "name": "Monthly"},
]


def test_select_a_row_by_name_is_its_selection_box_not_its_link():
    assert find("select dana", ROWS)["best_ref"] == "e3"
    assert find("tick bob", ROWS)["best_ref"] == "e1"


def test_select_leaves_a_choice_of_another_kind_alone():
    assert find("select monthly", ROWS)["best_ref"] == "e6"
    assert find("dana", ROWS)["best_ref"] == "e4"


ACCOUNT = [
    {"ref": "e0", "role": "checkbox", "name": "Active", "checked": True},
    {"ref": "e1", "role": "text", "name": "Designates whether this user should be treated as active. "
                                           "Unselect this instead of deleting accounts."},
    {"ref": "e2", "role": "checkbox", "name": "Staff status", "checked": False},
]


def test_deactivate_turns_off_the_box_that_says_active_not_its_help_text():
    assert find("deactivate the account", ACCOUNT)["best_ref"] == "e0"
    assert find("enable staff status", ACCOUNT)["best_ref"] == "e2"
