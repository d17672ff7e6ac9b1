"""pinchtab.find recovery: error classification and safe re-matching (no browser)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pinchtab.cdp.errors import ERROR_TYPES, classify_error
from pinchtab.find import ElementIndex, IntentCache, rematch

SHARED = Path(__file__).resolve().parents[3].parent / "shared" / "find-corpus"

# The classification cases of the shared corpus, inline so the tests do not depend on it.
CLASSIFICATION = [
    ("Could not find node with given id", "element_not_found", True),
    ("node is detached from document", "element_stale", True),
    ("Execution context was destroyed", "element_stale", True),
    ("net::ERR_CONNECTION_REFUSED", "network", False),
    ("net::ERR_NAME_NOT_RESOLVED", "network", False),
    ("Navigating frame was detached", "navigation", True),
    ("Page was destroyed while navigating", "navigation", True),
    ("Element is not visible in viewport", "element_not_interactable", True),
    ("Element is obscured by another element", "element_not_interactable", True),
    ("random unknown error occurred", "unknown", False),
    ("timeout while waiting for selector", "network", False),
    ("stale element reference", "element_stale", True),
]


@pytest.mark.parametrize("message,etype,recoverable", CLASSIFICATION)
def test_classify_error(message, etype, recoverable):
    assert classify_error(message) == (etype, recoverable)


def test_classify_error_more():
    assert classify_error("No node with given id found") == ("element_not_found", True)
    assert classify_error("Node is not clickable at point (10, 20)") == ("element_not_interactable", True)
    assert classify_error("") == ("unknown", False)
    assert classify_error(None) == ("unknown", False)
    assert classify_error(RuntimeError("net::ERR_ABORTED")) == ("network", False)
    assert {t for t, _ in (classify_error(m) for m, _, _ in CLASSIFICATION)} <= set(ERROR_TYPES)


@pytest.mark.skipif(not (SHARED / "classification" / "cases.json").exists(), reason="shared corpus not present")
def test_classify_error_shared_corpus():
    for c in json.loads((SHARED / "classification" / "cases.json").read_text()):
        assert classify_error(c["error"]) == (c["expected_type"], c["recoverable"]), c["id"]


def intent_for(query: str, elements, ref: str | None = None):
    idx = ElementIndex(elements)
    res = idx.find(query)
    cache = IntentCache()
    if ref is None:
        return cache.record_result("t", query, res, idx)
    return cache.record("t", ref, query, idx.get(ref), res["score"], res["confidence"])


SCENARIOS = [
    # (name, query, before, original ref, after, expected new ref or None)
    ("renamed", "submit button", [
        {"ref": "e1", "role": "textbox", "name": "Email"}, {"ref": "e2", "role": "textbox", "name": "Message"},
        {"ref": "e3", "role": "button", "name": "Submit"},
    ], "e3", [
        {"ref": "e1", "role": "textbox", "name": "Email"}, {"ref": "e2", "role": "textbox", "name": "Message"},
        {"ref": "e3", "role": "button", "name": "Send"},
    ], "e3"),
    ("shifted", "sign in button", [
        {"ref": "e1", "role": "textbox", "name": "Username"}, {"ref": "e2", "role": "button", "name": "Sign In"},
    ], "e2", [
        {"ref": "e1", "role": "textbox", "name": "Username"}, {"ref": "e2", "role": "textbox", "name": "Password"},
        {"ref": "e3", "role": "button", "name": "Sign In"},
    ], "e3"),
    ("similar added", "checkout button", [
        {"ref": "e1", "role": "text", "name": "Cart (2 items)"}, {"ref": "e2", "role": "button", "name": "Continue Shopping"},
        {"ref": "e3", "role": "button", "name": "Checkout"},
    ], "e3", [
        {"ref": "e1", "role": "text", "name": "Cart (2 items)"}, {"ref": "e2", "role": "button", "name": "Continue Shopping"},
        {"ref": "e3", "role": "button", "name": "Express Checkout"}, {"ref": "e4", "role": "button", "name": "Checkout"},
        {"ref": "e5", "role": "button", "name": "PayPal Checkout"},
    ], "e4"),
    ("section kept", "submit in login form", [
        {"ref": "e1", "role": "textbox", "name": "Email", "section": "Login"},
        {"ref": "e4", "role": "button", "name": "Submit", "section": "Login"},
    ], "e4", [
        {"ref": "e1", "role": "heading", "name": "Welcome", "section": "Header"},
        {"ref": "e2", "role": "button", "name": "Submit", "section": "Newsletter"},
        {"ref": "e3", "role": "textbox", "name": "Email", "section": "Login"},
        {"ref": "e5", "role": "button", "name": "Submit", "section": "Login"},
    ], "e5"),
    ("text variant", "log out", [
        {"ref": "e5", "role": "button", "name": "Log Out"},
    ], "e5", [
        {"ref": "e5", "role": "button", "name": "Logout"},
    ], "e5"),
    ("reordered", "settings link", [
        {"ref": "e1", "role": "link", "name": "Dashboard"}, {"ref": "e2", "role": "link", "name": "Profile"},
        {"ref": "e3", "role": "link", "name": "Settings"},
    ], "e3", [
        {"ref": "e1", "role": "link", "name": "Dashboard"}, {"ref": "e2", "role": "link", "name": "Settings"},
        {"ref": "e3", "role": "link", "name": "Profile"},
    ], "e2"),
]


@pytest.mark.parametrize("name,query,before,ref,after,expected", SCENARIOS, ids=[s[0] for s in SCENARIOS])
def test_rematch_finds_the_element(name, query, before, ref, after, expected):
    intent = intent_for(query, before, ref)
    m = rematch(intent, ElementIndex(after))
    assert m is not None
    assert m.ref == expected
    assert 0.6 <= m.score <= 1.0
    assert m.descriptor.ref == expected
    assert m.confidence in ("high", "medium")


def test_rematch_refuses_when_element_is_gone():
    before = [{"ref": "e1", "role": "text", "name": "Item 1"}, {"ref": "e2", "role": "button", "name": "Edit"},
              {"ref": "e3", "role": "button", "name": "Delete"}]
    after = [{"ref": "e1", "role": "text", "name": "Item 1"}, {"ref": "e2", "role": "button", "name": "Edit"},
             {"ref": "e3", "role": "button", "name": "Archive"}]
    intent = intent_for("delete button", before, "e3")
    assert rematch(intent, ElementIndex(after)) is None
    # same role at the same position is not enough, and neither is an empty page
    assert rematch(intent, ElementIndex([])) is None


def test_rematch_refuses_ambiguous_duplicates():
    before = [{"ref": "a", "role": "button", "name": "Save", "section": "Profile"}]
    after = [{"ref": "b", "role": "button", "name": "Save", "section": "Billing"},
             {"ref": "c", "role": "button", "name": "Save", "section": "Shipping"}]
    m = rematch(intent_for("save", before, "a"), ElementIndex(after))
    assert m is None


def test_rematch_threshold_is_respected():
    before = [{"ref": "e1", "role": "button", "name": "Submit order"}]
    after = [{"ref": "e9", "role": "button", "name": "Submit"}]
    intent = intent_for("submit order button", before, "e1")
    loose = rematch(intent, ElementIndex(after), min_score=0.5)
    assert loose is not None and loose.ref == "e9"
    assert rematch(intent, ElementIndex(after), min_score=0.99) is None


@pytest.mark.skipif(not (SHARED / "recovery-scenarios" / "scenarios.json").exists(), reason="shared corpus not present")
def test_rematch_shared_scenarios():
    for s in json.loads((SHARED / "recovery-scenarios" / "scenarios.json").read_text()):
        intent = intent_for(s["original_query"], s["before"], s["original_ref"])
        m = rematch(intent, ElementIndex(s["after"]))
        if s.get("expect_no_match") or s.get("expected_ref") is None:
            assert m is None, s["id"]
        else:
            assert m is not None and m.ref in {s["expected_ref"], *s.get("expected_alt", [])}, s["id"]
