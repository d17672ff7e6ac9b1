"""Requests to write something pick the field to write in (find.text_entry)."""

from pinchtab.find import find
from pinchtab.find.passes.text_entry import parse

RECIPE = [
    {"ref": "e0", "role": "heading", "name": "Reviews (86)", "section": "Reviews (86)"},
    {"ref": "e1", "role": "combobox", "name": "Sort by", "section": "Reviews (86)"},
    {"ref": "e2", "role": "textbox", "name": "Tried it? Share your tips and tweaks", "section": "Reviews (86)"},
    {"ref": "e3", "role": "button", "name": "Post review", "section": "Reviews (86)"},
    {"ref": "e4", "role": "textbox", "name": "Email", "section": "Newsletter"},
]
SHOP = [
    {"ref": "e0", "role": "button", "name": "Write a review", "section": "Reviews"},
    {"ref": "e1", "role": "textbox", "name": "Your review", "section": "Reviews", "disabled": True},
    {"ref": "e2", "role": "textbox", "name": "Search"},
]


def test_parse():
    assert parse("write a review") == ("write", ("review",))
    assert parse("write") is None
    assert parse("post review") is None


def test_write_picks_the_field_not_the_send_button():
    assert find("write a review", RECIPE)["best_ref"] == "e2"
    assert find("post review", RECIPE)["best_ref"] == "e3"


def test_a_control_that_says_the_verb_stays():
    assert find("write a review", SHOP)["best_ref"] == "e0"


def test_type_of_is_a_noun():
    assert parse("type of payment") is None
