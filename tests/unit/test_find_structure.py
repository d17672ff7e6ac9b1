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
