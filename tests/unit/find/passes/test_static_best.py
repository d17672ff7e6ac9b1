"""A control over a heading or text that only says the query's words (find.static_best)."""

import pytest

from pinchtab.find import find
from pinchtab.find.passes import PASSES, static_best

# a chat's channel view: the member list's button in the header, the details pane's heading
CHAT = [
    {"ref": "e0", "role": "heading", "name": "# release-planning", "section": "Main"},
    {"ref": "e1", "role": "button", "name": "View all 14 members", "section": "Main", "heading": "# release-planning"},
    {"ref": "e2", "role": "button", "name": "Start a huddle", "section": "Main", "heading": "# release-planning"},
    {"ref": "e3", "role": "complementary", "name": "Channel details", "interactive": False},
    {"ref": "e4", "role": "heading", "name": "Members", "section": "Channel details", "parent": "Channel details"},
    {"ref": "e5", "role": "list", "name": "", "section": "Channel details", "heading": "Members"},
    {"ref": "e6", "role": "listitem", "name": "Omar Farouk", "section": "Channel details", "heading": "Members"},
]

# a job form's yes/no question: the question's text, then its radio group
Q = "Are you legally authorized to work in the EU? *"
FORM = [
    {"ref": "e0", "role": "heading", "name": "A few questions"},
    {"ref": "e1", "role": "radiogroup", "name": Q, "interactive": False, "heading": "A few questions"},
    {"ref": "e2", "role": "text", "name": Q[:-2], "interactive": False, "parent": Q, "heading": "A few questions"},
    {"ref": "e3", "role": "radio", "name": "Yes", "parent": Q, "heading": "A few questions", "item": f"{Q} Yes No"},
    {"ref": "e4", "role": "radio", "name": "No", "parent": Q, "heading": "A few questions", "item": f"{Q} Yes No"},
]

# a table: a cell's value is what "Emma's role" asks for, and a row has its own buttons
TEAM = [
    {"ref": "e0", "role": "columnheader", "name": "Name"},
    {"ref": "e1", "role": "columnheader", "name": "Role"},
    {"ref": "e2", "role": "row", "name": "Emma Stone Viewer Remove", "interactive": False},
    {"ref": "e3", "role": "cell", "name": "Emma Stone", "parent": "e2", "column": "Name"},
    {"ref": "e4", "role": "cell", "name": "Viewer", "parent": "e2", "column": "Role"},
    {"ref": "e5", "role": "button", "name": "Remove", "parent": "e2"},
]


def test_the_control_beats_the_heading_that_says_the_same_words():
    assert find("member list", CHAT)["best_ref"] == "e1"


def test_the_heading_stays_when_a_role_word_asks_for_it():
    assert find("members heading", CHAT)["best_ref"] == "e4"


def test_the_answer_of_a_question_beats_its_text():
    assert find("I'm allowed to work in the EU", FORM)["best_ref"] == "e3"


def test_a_cell_is_not_handed_over():
    assert find("Emma's role", TEAM)["best_ref"] == "e4"


@pytest.mark.parametrize(("query", "page", "text"), [("member list", CHAT, "e4"), ("I'm allowed to work in the EU", FORM, "e2")])
def test_without_the_pass_the_text_wins(monkeypatch, query, page, text):
    from pinchtab.find import matcher

    monkeypatch.setattr(matcher, "PASSES", tuple(p for p in PASSES if p is not static_best))
    assert find(query, page)["best_ref"] == text
