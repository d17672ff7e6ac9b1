"""Structured locators (PinchTab's exact selector grammar) over element dicts: no browser."""

from __future__ import annotations

from pinchtab.find.locators import Locator, match, parse_locator

ELEMENTS = [
    {"ref": "e0", "role": "link", "name": "Home"},
    {"ref": "e1", "role": "textbox", "name": "Email address", "placeholder": "you@example.com"},
    {"ref": "e2", "role": "textbox", "name": "Password"},
    {"ref": "e3", "role": "button", "name": "Log In"},
    {"ref": "e4", "role": "button", "name": "Log In with Google"},
    {"ref": "e5", "role": "img", "name": "Company logo"},
    {"ref": "e6", "role": "button", "name": "Close", "titled": True},
    {"ref": "e7", "role": "button", "name": "Submit", "testid": "submit-btn"},
    {"ref": "e8", "role": "heading", "name": "Email"},
]


def test_parse() -> None:
    assert parse_locator("role:button Log In") == Locator("role", "Log In", "button")
    assert parse_locator("ROLE:Button") == Locator("role", "", "button")
    assert parse_locator("label:'Email'") == Locator("label", "Email")
    assert parse_locator("nth:2:label:Email") == Locator("label", "Email", wrapper="nth", nth=2)
    assert parse_locator("first:role:button") == Locator("role", "", "button", "first")
    assert parse_locator("text:Submit") == Locator("text", "Submit")
    assert parse_locator("text:Submit", with_text=False) is None
    for natural in ("log in button", "#email", "label:", "nth:x:role:button", "first:#id"):
        assert parse_locator(natural) is None, natural


def names(query: str) -> list[str]:
    loc = parse_locator(query)
    assert loc is not None
    return [m["name"] for m in match(loc, ELEMENTS)["matches"]]


def test_exact_beats_contained_and_roles_must_agree() -> None:
    assert names("role:button Log In") == ["Log In", "Log In with Google"]
    assert match(parse_locator("role:button Log In"), ELEMENTS)["matches"][0]["score"] == 1.0
    assert names("role:link Log In") == []
    assert names("label:Email") == ["Email address"]  # a heading has no label
    assert names("placeholder:you@example") == ["Email address"]
    assert names("alt:logo") == ["Company logo"]
    assert names("title:Close") == ["Close"]
    assert names("testid:submit-btn") == ["Submit"]
    assert names("text:Email") == ["Email", "Email address"]


def test_wrappers_take_document_order() -> None:
    assert names("first:role:button") == ["Log In"]
    assert names("last:role:button") == ["Submit"]
    assert names("nth:1:role:button") == ["Log In with Google"]
    assert names("nth:9:role:button") == []
    res = match(parse_locator("first:role:button"), ELEMENTS)
    assert res["best_ref"] == "e3" and "structured" in res["strategy"] and res["element_count"] == len(ELEMENTS)
