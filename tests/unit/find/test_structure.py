"""find: query structure that generalises across pages (leading verb + locator, action intent,
dialogs, states, repeated concepts)."""

from __future__ import annotations

from pinchtab.find import find, parse_query

ORDERS = [
    {"ref": "e0", "role": "columnheader", "name": "Customer"},
    {"ref": "e1", "role": "cell", "name": "Alice Moreau", "parent": "#1001 Alice Moreau $84.00 Paid Refund"},
    {"ref": "e2", "role": "button", "name": "Refund", "parent": "#1001 Alice Moreau $84.00 Paid Refund"},
    {"ref": "e3", "role": "cell", "name": "Chen Wei", "parent": "#1003 Chen Wei $19.99 Paid Refund"},
    {"ref": "e4", "role": "button", "name": "Refund", "parent": "#1003 Chen Wei $19.99 Paid Refund"},
]


def test_lead_verb_is_marked() -> None:
    assert parse_query("refund Chen Wei").lead_verb == 0
    assert parse_query("refund").lead_verb is None
    assert parse_query("button in the footer").lead_verb is None  # a role word, not a label


def test_leading_label_then_row_context() -> None:
    # the first word names the button, the rest its row: the button, not the cell
    assert find("refund Chen Wei", ORDERS)["best_ref"] == "e4"
    assert find("refund Alice", ORDERS)["best_ref"] == "e2"


SETTINGS = [
    {"ref": "e0", "role": "text", "name": "Two-factor authentication", "parent": "Account"},
    {"ref": "e1", "role": "button", "name": "Enable", "parent": "Account", "item": "Two-factor authentication Enable"},
    {"ref": "e2", "role": "text", "name": "Password", "parent": "Account"},
    {"ref": "e3", "role": "button", "name": "Change", "parent": "Account", "item": "Password Change"},
    {"ref": "e4", "role": "text", "name": "Email address", "parent": "Account"},
    {"ref": "e5", "role": "button", "name": "Change", "parent": "Account", "item": "Email address Change"},
]


def test_action_verb_prefers_the_control_over_its_label_text() -> None:
    assert find("turn on 2FA", SETTINGS)["best_ref"] == "e1"
    assert find("change password", SETTINGS)["best_ref"] == "e3"
    assert find("change email address", SETTINGS)["best_ref"] == "e5"


def test_a_role_word_still_asks_for_a_static_role() -> None:
    rows = [
        {"ref": "e0", "role": "row", "name": "INV-1004 Maya Chen $320.00 Payment failed"},
        {"ref": "e1", "role": "button", "name": "Retry", "parent": "INV-1004 Maya Chen $320.00 Payment failed"},
    ]
    assert find("open failed payment row", rows)["best_ref"] == "e0"


CONSENT = [
    {"ref": "e0", "role": "link", "name": "Cookie settings", "section": "Footer", "depth": 1},
    {"ref": "e1", "role": "link", "name": "Privacy notice", "section": "Footer", "depth": 1},
    {"ref": "e2", "role": "dialog", "name": "We value your privacy", "modal": True, "depth": 0},
    {"ref": "e3", "role": "button", "name": "Close", "depth": 1, "section": "We value your privacy",
     "item": "We value your privacy We and our partners use cookies to personalise content"},
    {"ref": "e4", "role": "link", "name": "Read our privacy notice", "depth": 1, "section": "We value your privacy"},
    {"ref": "e5", "role": "button", "name": "Manage cookie preferences", "depth": 1, "section": "We value your privacy"},
    {"ref": "e6", "role": "link", "name": "Careers", "depth": 0},
]


def test_dialog_content_is_known_from_depth_or_section() -> None:
    from pinchtab.find import build_descriptors

    ds = build_descriptors(CONSENT)
    assert [d.in_modal for d in ds] == [False, False, True, True, True, True, False]
    by_name = [dict(e, depth=None) for e in CONSENT]  # no depths: the section names the dialog
    assert [d.in_dialog for d in build_descriptors(by_name)][3:6] == [True, True, True]


def test_an_open_modal_is_preferred_unless_the_query_places_the_target() -> None:
    assert find("privacy notice", CONSENT)["best_ref"] == "e4"
    assert find("privacy notice in the footer", CONSENT)["best_ref"] == "e1"
    assert find("dismiss the cookie popup", CONSENT)["best_ref"] == "e3"
    assert find("cookie settings", CONSENT)["best_ref"] == "e5"


FILTERS = [
    {"ref": "e0", "role": "group", "name": "Stops"},
    {"ref": "e1", "role": "checkbox", "name": "Nonstop", "parent": "Stops", "checked": True},
    {"ref": "e2", "role": "checkbox", "name": "1 stop", "parent": "Stops", "checked": True},
    {"ref": "e3", "role": "checkbox", "name": "2+ stops", "parent": "Stops", "checked": False},
    {"ref": "e4", "role": "button", "name": "SDKs", "expanded": False},
    {"ref": "e5", "role": "button", "name": "Guides", "expanded": True},
]


def test_state_adjectives_and_verbs() -> None:
    pq = parse_query("the unchecked stops filter")
    assert pq.states["checked"][0] is False
    assert all(t.bonus for t in pq.terms if t.unit.text == "unchecked")
    assert find("the unchecked stops filter", FILTERS)["best_ref"] == "e3"
    assert find("checked stops box", FILTERS)["best_ref"] in ("e1", "e2")
    assert parse_query("uncheck newsletter").states["checked"][0] is True
    assert find("collapsed button", FILTERS)["best_ref"] == "e4"


def test_a_state_word_alone_is_still_text() -> None:
    assert parse_query("checked").states == {}


def test_two_words_for_one_concept_count_once() -> None:
    pq = parse_query("create a new channel")
    assert [t.bonus for t in pq.terms] == [False, True, False]
    chat = [
        {"ref": "e0", "role": "button", "name": "New message"},
        {"ref": "e1", "role": "button", "name": "+", "description": "Add channels"},
    ]
    assert find("create a new channel", chat)["best_ref"] == "e1"


def test_a_specific_action_the_element_lacks_weighs_against_it() -> None:
    assert parse_query("approve pull request").action_verb
    assert not parse_query("open pull request").action_verb  # a generic verb
    els = [
        {"ref": "e0", "role": "link", "name": "Pull requests 12"},
        {"ref": "e1", "role": "button", "name": "Approve", "parent": "Review pull request"},
    ]
    assert find("approve pull request", els)["best_ref"] == "e1"
    # a verb-only match is fine: the object is implied
    assert find("play video", [{"ref": "e0", "role": "button", "name": "Play"}])["best_ref"] == "e0"


def test_a_field_or_list_box_that_names_the_object_does_not_do_the_action() -> None:
    docs = [
        {"ref": "e0", "role": "combobox", "name": "Version", "value": "v3.2", "section": "Header"},
        {"ref": "e1", "role": "link", "name": "Get started", "section": "Header"},
        {"ref": "e2", "role": "link", "name": "Quickstart"},
    ]
    found = find("download the PDF version", docs)
    assert found["best_ref"] == "" and found["matches"] == []  # no download on the page: nothing
    assert find("select docs version", docs)["best_ref"] == "e0"  # what a list box does
    # a control that does the action and names the object still wins
    with_pdf = docs + [{"ref": "e3", "role": "link", "name": "Download PDF"}]
    assert find("download the PDF version", with_pdf)["best_ref"] == "e3"


def test_a_symbol_named_icon_button_is_called_by_its_title() -> None:
    side = [
        {"ref": "e0", "role": "button", "name": "▾ Channels", "expanded": True},
        {"ref": "e1", "role": "button", "name": "+", "description": "Add channels"},
        {"ref": "e2", "role": "button", "name": "New message"},
    ]
    assert find("create a new channel", side)["best_ref"] == "e1"
    assert find("add channel", side)["best_ref"] == "e1"


def test_a_strong_role_word_outweighs_a_name_match() -> None:
    form = [
        {"ref": "e0", "role": "heading", "name": "Add a comment"},
        {"ref": "e1", "role": "textbox", "name": "Markdown value", "placeholder": "Leave a comment"},
        {"ref": "e2", "role": "button", "name": "Comment", "disabled": True},
    ]
    assert find("comment text area", form)["best_ref"] == "e1"
    assert find("comment button", form)["best_ref"] == "e2"


def test_a_short_label_ended_by_a_preposition_keeps_it() -> None:
    times = [
        {"ref": "e0", "role": "textbox", "name": "Quiet hours from", "type": "time"},
        {"ref": "e1", "role": "textbox", "name": "Quiet hours to", "type": "time"},
    ]
    assert find("quiet hours end time", times)["best_ref"] == "e1"
    assert find("quiet hours start", times)["best_ref"] == "e0"


def test_a_toggle_is_not_the_opposite_of_what_it_toggles() -> None:
    privacy = [
        {"ref": "e0", "role": "switch", "name": "Show when I'm online", "checked": True},
        {"ref": "e1", "role": "switch", "name": "Share usage analytics", "checked": True},
    ]
    assert find("hide my online status", privacy)["best_ref"] == "e0"
