"""The author is the name a byline gives (find.byline)."""

from pinchtab.find import find

ARTICLE = [
    {"ref": "e0", "role": "link", "name": "Subscribe", "section": "Header"},
    {"ref": "e1", "role": "heading", "name": "City council approves bike lane expansion", "section": "Main"},
    {"ref": "e2", "role": "text", "name": "By", "section": "Main", "heading": "City council approves bike lane expansion"},
    {"ref": "e3", "role": "link", "name": "Daniela Morales", "section": "Main", "heading": "City council approves bike lane expansion"},
    {"ref": "e4", "role": "text", "name": "· Updated 6:42 p.m.", "section": "Main"},
    {"ref": "e5", "role": "button", "name": "Report", "section": "Main", "item": "Sam Lee 2h ago Great news"},
    {"ref": "e6", "role": "link", "name": "Send a news tip", "section": "Footer"},
]

# the block around the name says what it is
BLOCK = [
    {"ref": "e0", "role": "heading", "name": "City council approves new transit plan", "section": "Article"},
    {"ref": "e1", "role": "link", "name": "Maria Gonzalez", "section": "Article", "parent": "Byline"},
    {"ref": "e2", "role": "button", "name": "Share", "section": "Article", "parent": "Article tools"},
]


def test_the_name_after_by_is_the_author():
    found = find("author name link", ARTICLE)
    assert found["best_ref"] == "e3" and found["confidence"] == "low"


def test_the_name_in_a_byline_block_is_the_author():
    assert find("author profile", BLOCK)["best_ref"] == "e1"
    assert find("the writer", BLOCK)["best_ref"] == "e1"


def test_a_control_that_says_author_keeps_its_place():
    page = ARTICLE + [{"ref": "e7", "role": "link", "name": "Become an author", "section": "Footer"}]
    assert find("become an author", page)["best_ref"] == "e7"


def test_reporters_as_recipients_are_no_byline():
    assert find("send a tip to reporters", ARTICLE)["best_ref"] == "e6"


def test_no_byline_no_guess():
    assert find("author name link", [e for e in ARTICLE if e["ref"] != "e2"])["best_ref"] != "e3"
