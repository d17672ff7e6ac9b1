"""How query words are used: one element word answers one query word, a plural role word is a
thing the page lists, and a verb on another object is not the action asked for."""

from pinchtab.find import find
from pinchtab.find.query.parse import parse_query

ARTICLE = [
    {"ref": "e0", "role": "heading", "name": "City council approves bike lanes"},
    {"ref": "e1", "role": "button", "name": "Save article for later", "parent": "Share this article"},
    {"ref": "e2", "role": "button", "name": "Share on social media", "parent": "Share this article"},
    {"ref": "e3", "role": "button", "name": "Load more comments"},
]


def test_one_element_word_does_not_answer_two_query_words():
    # "save" relates to both "download" and "PDF": one word, not both the action and the format
    assert find("download as PDF", ARTICLE)["best_ref"] == ""
    # the verb alone still finds it
    assert find("download article", ARTICLE)["best_ref"] == "e1"


def test_two_nouns_side_by_side_are_one_thing():
    page = [
        {"ref": "e0", "role": "searchbox", "name": "Search or jump to..."},
        {"ref": "e1", "role": "button", "name": "New"},
        {"ref": "e2", "role": "button", "name": "Add file"},
    ]
    assert find("type a new search query", page)["best_ref"] == "e0"


PR = [
    {"ref": "e0", "role": "button", "name": "Add or remove reactions", "item": "kwan commented 2 days ago"},
    {"ref": "e1", "role": "button", "name": "Add or remove reactions", "item": "mtorres commented yesterday"},
    {"ref": "e2", "role": "heading", "name": "Add a comment"},
    {"ref": "e3", "role": "heading", "name": "Labels Edit labels", "section": "Pull request metadata"},
    {"ref": "e4", "role": "button", "name": "Edit labels", "section": "Pull request metadata", "heading": "Labels Edit labels"},
    {"ref": "e5", "role": "button", "name": "Edit reviewers", "section": "Pull request metadata"},
]


def test_a_plural_weak_role_word_is_what_the_page_lists():
    terms = parse_query("add labels").terms
    assert [t.role for t in terms] == [None, None]  # "labels" is content, not a <label>
    assert parse_query("email label").terms[-1].role == "label"  # the singular still is a role


def test_the_verb_on_another_object_is_not_the_action_asked_for():
    # "Add or remove reactions" says the verb but about reactions; "Edit labels" names the labels
    assert find("add labels", PR)["best_ref"] == "e4"
    # a bare verb names no other object: it is not lowered
    page = [{"ref": "e0", "role": "button", "name": "Add or remove reactions"}, {"ref": "e1", "role": "button", "name": "Add"}]
    assert find("add labels", page)["best_ref"] == "e1"


def test_a_customising_verb_wants_a_control_not_the_text_that_names_it():
    consent = [
        {"ref": "e0", "role": "text", "name": "Cookie settings", "parent": "We value your privacy"},
        {"ref": "e1", "role": "button", "name": "Manage preferences", "parent": "We value your privacy"},
        {"ref": "e2", "role": "button", "name": "Accept all cookies", "parent": "We value your privacy"},
    ]
    assert find("customize cookie settings", consent)["best_ref"] == "e1"
    assert find("cookie settings", consent)["best_ref"] == "e0"  # no verb: the text that says it


def test_icon_says_what_the_target_looks_like_where_the_snapshot_marks_icons():
    mail = [
        {"ref": "e0", "role": "link", "name": "Trash", "parent": "Folders"},
        {"ref": "e1", "role": "button", "name": "Delete", "parent": "Message actions", "icon": True},
        {"ref": "e2", "role": "button", "name": "Archive", "parent": "Message actions", "icon": True},
    ]
    assert find("trash can icon", mail)["best_ref"] == "e1"
    assert find("trash", mail)["best_ref"] == "e0"
    # a snapshot that marks no icon (another producer): "icon" stays a filler word
    plain = [{k: v for k, v in e.items() if k != "icon"} for e in mail]
    assert find("trash can icon", plain)["best_ref"] == "e0"


def test_go_back_to_names_where_to_not_a_back_button():
    player = [
        {"ref": "e0", "role": "button", "name": "Go back", "heading": "Playlists"},
        {"ref": "e1", "role": "button", "name": "Go forward", "heading": "Playlists"},
        {"ref": "e2", "role": "button", "name": "Previous", "parent": "Player controls"},
        {"ref": "e3", "role": "button", "name": "Next", "parent": "Player controls"},
    ]
    assert find("go back to the previous track", player)["best_ref"] == "e2"
    assert find("go back", player)["best_ref"] == "e0"
    checkout = [
        {"ref": "e0", "role": "link", "name": "Cart (3)", "section": "Header"},
        {"ref": "e1", "role": "link", "name": "Return to cart", "section": "Main"},
    ]
    assert find("go back to my cart", checkout)["best_ref"] == "e1"  # a control that says the motion still does
