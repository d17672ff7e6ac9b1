"""pinchtab.find matcher: result shape, matching behaviour and query structure (no browser)."""

from __future__ import annotations

import pytest

from pinchtab.errors import BadRequest
from pinchtab.find import STRATEGY, ElementIndex, find

RESULT_KEYS = {"best_ref", "confidence", "score", "matches", "strategy", "threshold", "latency_ms", "element_count"}
MATCH_KEYS = {"ref", "score", "role", "name"}
EXPLAIN_KEYS = MATCH_KEYS | {"lexical_score", "embedding_score", "composite"}

LOGIN = [
    {"ref": "e0", "role": "heading", "name": "Welcome Back", "section": "Header"},
    {"ref": "e1", "role": "textbox", "name": "Email address", "value": "", "parent": "Login form"},
    {"ref": "e2", "role": "textbox", "name": "Password", "parent": "Login form"},
    {"ref": "e3", "role": "checkbox", "name": "Remember me", "parent": "Login form"},
    {"ref": "e4", "role": "button", "name": "Sign In", "parent": "Login form"},
    {"ref": "e5", "role": "link", "name": "Forgot password?", "parent": "Login form"},
    {"ref": "e6", "role": "link", "name": "Create an account"},
    {"ref": "e7", "role": "link", "name": "Privacy Policy", "section": "Footer"},
]

DUPLICATES = [
    {"ref": "e0", "role": "heading", "name": "Checkout", "section": "Header"},
    {"ref": "e1", "role": "button", "name": "Submit", "section": "Header"},
    {"ref": "e2", "role": "button", "name": "Submit", "section": "Login", "parent": "Login form"},
    {"ref": "e3", "role": "button", "name": "Submit", "section": "Payment", "parent": "Payment form"},
    {"ref": "e4", "role": "button", "name": "Submit", "section": "Footer"},
    {"ref": "e5", "role": "link", "name": "Log in", "section": "Header"},
    {"ref": "e6", "role": "link", "name": "Log in", "section": "Sidebar"},
    {"ref": "e7", "role": "link", "name": "Log in", "section": "Footer"},
    {"ref": "e8", "role": "textbox", "name": "Email", "section": "Billing"},
    {"ref": "e9", "role": "textbox", "name": "First name", "section": "Billing"},
]


def best(query: str, elements, **kw) -> str:
    return find(query, elements, **kw)["best_ref"]


# ----------------------------------------------------------------------------- result shape
def test_result_has_exactly_the_response_fields():
    res = find("sign in", LOGIN)
    assert set(res) == RESULT_KEYS
    assert res["strategy"] == STRATEGY == "combined:lexical+embedding:hashing"
    assert res["threshold"] == 0.3
    assert res["element_count"] == len(LOGIN)
    assert isinstance(res["latency_ms"], float) and res["latency_ms"] >= 0
    assert res["matches"] and all(set(m) == MATCH_KEYS for m in res["matches"])
    assert res["best_ref"] == res["matches"][0]["ref"]
    assert res["score"] == res["matches"][0]["score"]


def test_matches_sorted_limited_to_top_k_and_above_threshold():
    res = find("password", LOGIN, top_k=2, threshold=0.1)
    scores = [m["score"] for m in res["matches"]]
    assert len(scores) <= 2
    assert scores == sorted(scores, reverse=True)
    assert all(s >= 0.1 for s in scores)
    assert all(round(s, 4) == s for s in scores)


@pytest.mark.parametrize("score,band", [(0.95, "high"), (0.80, "high"), (0.79, "medium"), (0.60, "medium"), (0.59, "low")])
def test_confidence_bands(score, band):
    from pinchtab.find import confidence_for

    assert confidence_for(score) == band


def test_exact_match_is_high_confidence():
    res = find("Sign In", LOGIN)
    assert res["best_ref"] == "e4"
    assert res["confidence"] == "high"


def test_explain_adds_score_breakdown():
    res = find("sign in button", LOGIN, explain=True)
    for m in res["matches"]:
        assert set(m) == EXPLAIN_KEYS
        assert 0.0 <= m["lexical_score"] <= 1.0
        assert 0.0 <= m["embedding_score"] <= 1.0
    plain = find("sign in button", LOGIN)
    assert all(set(m) == MATCH_KEYS for m in plain["matches"])


def test_nothing_above_threshold_gives_empty_best_ref():
    res = find("upload a video", LOGIN)
    assert res["best_ref"] == ""
    assert res["matches"] == []
    assert res["score"] == 0.0
    assert res["confidence"] == "low"
    assert set(res) == RESULT_KEYS


def test_threshold_filters_matches():
    loose = find("password", LOGIN, threshold=0.05, top_k=10)
    strict = find("password", LOGIN, threshold=0.9, top_k=10)
    assert len(strict["matches"]) < len(loose["matches"])
    assert all(m["score"] >= 0.9 for m in strict["matches"])
    assert find("password", LOGIN, threshold=1.0)["best_ref"] in ("", "e2")


# ----------------------------------------------------------------------------- validation
@pytest.mark.parametrize("query", [None, "", "   ", 42, ["sign in"]])
def test_missing_query_is_bad_request(query):
    with pytest.raises(BadRequest) as ei:
        find(query, LOGIN)
    assert ei.value.code == "missing_query"
    assert ei.value.message == "query is required"
    assert ei.value.status == 400
    assert isinstance(ei.value, ValueError)
    with pytest.raises(BadRequest):
        ElementIndex(LOGIN).find(query)


@pytest.mark.parametrize("kw", [
    {"lexical_weight": -0.1}, {"embedding_weight": 1.5}, {"lexical_weight": 0, "embedding_weight": 0},
    {"lexical_weight": "a"}, {"threshold": 2}, {"threshold": "x"}, {"top_k": 0}, {"top_k": 1.5},
])
def test_invalid_options_are_bad_requests(kw):
    with pytest.raises(BadRequest):
        find("sign in", LOGIN, **kw)


def test_weight_overrides_change_scores():
    q = "pasword"  # typo: lexical and embedding disagree on how good the match is
    default = find(q, LOGIN, explain=True, threshold=0.0)["matches"][0]
    lex_only = find(q, LOGIN, lexical_weight=1.0, explain=True, threshold=0.0)["matches"][0]
    emb_only = find(q, LOGIN, embedding_weight=1.0, explain=True, threshold=0.0)["matches"][0]
    assert default["ref"] == lex_only["ref"] == "e2"
    assert lex_only["composite"] == pytest.approx(lex_only["lexical_score"], abs=1e-4)
    assert emb_only["composite"] == pytest.approx(emb_only["embedding_score"], abs=1e-4)
    assert default["composite"] == pytest.approx(0.6 * default["lexical_score"] + 0.4 * default["embedding_score"], abs=2e-4)
    assert lex_only["score"] != emb_only["score"]
    # one weight given: the other is its complement
    half = find(q, LOGIN, lexical_weight=0.5, explain=True, threshold=0.0)["matches"][0]
    assert half["composite"] == pytest.approx(0.5 * half["lexical_score"] + 0.5 * half["embedding_score"], abs=2e-4)


# ----------------------------------------------------------------------------- tolerance
def test_odd_elements_are_tolerated():
    elements = [
        {"ref": "e1"},                                       # only a ref
        {"role": "button", "name": "No ref"},                # skipped
        "not a dict",                                        # skipped
        None,                                                # skipped
        {"ref": "e2", "role": None, "name": None, "value": 3, "extra": {"x": 1}, "positional": "bad"},
        {"ref": "e3", "role": "button", "name": "Save", "parent": "e3", "section": 7},  # self-parent
        {"ref": "e3", "role": "link", "name": "Duplicate ref"},                          # duplicate ref: first wins
        {"ref": 4, "role": "link", "name": "Numeric ref"},
    ]
    res = find("save", elements)
    assert res["best_ref"] == "e3"
    assert res["element_count"] == 4
    idx = ElementIndex(elements)
    assert len(idx) == 4
    assert idx.get("e1") is not None and idx.get("e1").name == ""
    assert idx.get("4").name == "Numeric ref"
    assert find("numeric", elements)["best_ref"] == "4"


def test_empty_snapshot():
    res = find("anything", [])
    assert res["best_ref"] == "" and res["element_count"] == 0 and res["matches"] == []
    assert find("anything", None)["element_count"] == 0


# ----------------------------------------------------------------------------- index reuse
def test_index_reuse_equals_one_shot():
    idx = ElementIndex(LOGIN)
    for q in ["sign in", "log in", "email", "remember me checkbox", "forgot password link", "register"]:
        a = idx.find(q, explain=True)
        b = find(q, LOGIN, explain=True)
        a.pop("latency_ms")
        b.pop("latency_ms")
        assert a == b, q
        # repeated queries on the same index give the same answer
        c = idx.find(q, explain=True)
        c.pop("latency_ms")
        assert c == a


def test_index_exposes_descriptors():
    idx = ElementIndex(LOGIN)
    assert len(idx) == len(LOGIN)
    assert [d.ref for d in idx.descriptors] == [e["ref"] for e in LOGIN]
    d = idx.get("e4")
    assert d.role == "button" and d.name == "Sign In" and d.parent == "Login form"
    assert "Sign In" in d.composite and "Login form" in d.composite
    assert idx.get("nope") is None
    assert "e4" in idx


def test_parent_refs_resolve_to_names_and_columns():
    table = [
        {"ref": "t", "role": "table", "name": "Invoices"},
        {"ref": "h", "role": "row", "name": "", "parent": "t"},
        {"ref": "h1", "role": "columnheader", "name": "Customer", "parent": "h"},
        {"ref": "h2", "role": "columnheader", "name": "Status", "parent": "h"},
        {"ref": "r1", "role": "row", "name": "Acme Pending", "parent": "t"},
        {"ref": "c1", "role": "cell", "name": "Acme", "parent": "r1"},
        {"ref": "c2", "role": "cell", "name": "Pending", "parent": "r1"},
        {"ref": "b1", "role": "button", "name": "Edit", "parent": "r1"},
    ]
    idx = ElementIndex(table)
    assert idx.get("b1").parent == "Acme Pending"
    assert idx.get("b1").ancestors == ("Invoices",)
    assert idx.get("c2").column == "Status"
    assert idx.find("status for Acme")["best_ref"] == "c2"


# ----------------------------------------------------------------------------- matching
@pytest.mark.parametrize("query", ["log in", "login", "sign in", "signin", "log-in", "SignIn"])
def test_login_synonyms(query):
    assert best(query, LOGIN) == "e4"


def test_sign_in_matches_log_in_label():
    page = [{"ref": "a", "role": "link", "name": "Help"}, {"ref": "b", "role": "button", "name": "Log in"}]
    assert best("sign in", page) == "b"


@pytest.mark.parametrize("query,ref", [
    ("register", "e6"), ("sign up", "e6"), ("reset my password", "e5"), ("keep me logged in", "e3"),
    ("e-mail", "e1"), ("pwd", "e2"),
])
def test_synonyms_and_abbreviations(query, ref):
    assert best(query, LOGIN) == ref


@pytest.mark.parametrize("query,ref", [
    ("qty", "q"), ("btn settings", "s"), ("trash", "d"), ("preferences", "s"), ("basket", "c"),
    ("kebab menu", "m"), ("hamburger", "h"), ("magnifying glass", "f"), ("dismiss", "x"),
])
def test_ui_vocabulary(query, ref):
    page = [
        {"ref": "q", "role": "spinbutton", "name": "Quantity"},
        {"ref": "s", "role": "button", "name": "Settings", "description": "gear icon"},
        {"ref": "d", "role": "button", "name": "Delete"},
        {"ref": "c", "role": "link", "name": "Cart (2)"},
        {"ref": "m", "role": "button", "name": "More options", "description": "three dots"},
        {"ref": "h", "role": "button", "name": "Menu"},
        {"ref": "f", "role": "button", "name": "Search"},
        {"ref": "x", "role": "button", "name": "Close"},
    ]
    assert best(query, page) == ref


@pytest.mark.parametrize("query", ["sigin button", "pasword", "emial", "remmeber me"])
def test_typos(query):
    expected = {"sigin button": "e4", "pasword": "e2", "emial": "e1", "remmeber me": "e3"}[query]
    assert best(query, LOGIN) == expected


def test_prefix_of_long_word():
    page = [{"ref": "a", "role": "link", "name": "Configuration"}, {"ref": "b", "role": "link", "name": "Contact"}]
    assert best("config", page) == "a"


def test_role_boost_button_vs_link_with_same_name():
    page = [
        {"ref": "l", "role": "link", "name": "Subscribe"},
        {"ref": "b", "role": "button", "name": "Subscribe"},
    ]
    assert best("subscribe button", page) == "b"
    assert best("subscribe link", page) == "l"
    field = [{"ref": "btn", "role": "button", "name": "Search"}, {"ref": "box", "role": "searchbox", "name": "Search"}]
    assert best("search box", field) == "box"
    assert best("search button", field) == "btn"


def test_icon_only_button_found_by_aria_label_and_description():
    page = [
        {"ref": "a", "role": "button", "name": "", "label": "Notifications", "description": "bell icon"},
        {"ref": "b", "role": "button", "name": "Profile"},
    ]
    assert best("notifications", page) == "a"
    assert best("bell", page) == "a"


def test_section_context_boosts():
    page = [
        {"ref": "h", "role": "searchbox", "name": "Search", "section": "Header"},
        {"ref": "s", "role": "searchbox", "name": "Search", "section": "Sidebar"},
        {"ref": "f", "role": "link", "name": "Login", "section": "Footer"},
        {"ref": "t", "role": "link", "name": "Login", "section": "Header"},
    ]
    assert best("search in the header", page) == "h"
    assert best("sidebar search", page) == "s"
    assert best("footer login link", page) == "f"
    assert best("login link in header", page) == "t"


def test_dialog_context_from_ancestor_role():
    page = [
        {"ref": "p", "role": "button", "name": "Cancel", "section": "Page"},
        {"ref": "d", "role": "dialog", "name": "Confirm", "modal": True},
        {"ref": "c", "role": "button", "name": "Cancel", "parent": "d"},
    ]
    assert best("cancel in the dialog", page) == "c"
    assert best("cancel not in modal", page) == "p"


# ----------------------------------------------------------------------------- negation
def test_negation_excludes():
    assert best("submit button not in header", DUPLICATES) == "e2"
    assert best("log in link except footer", DUPLICATES) == "e5"
    page = [{"ref": "c", "role": "button", "name": "Cancel"}, {"ref": "o", "role": "button", "name": "OK"}]
    assert best("button not cancel", page) == "o"
    res = find("submit not in header", DUPLICATES, top_k=10)
    assert "e1" not in [m["ref"] for m in res["matches"]]


def test_not_as_literal_text_is_kept():
    page = [{"ref": "n", "role": "button", "name": "Not now"}, {"ref": "y", "role": "button", "name": "Yes"}]
    assert best("not now", page) == "n"


# ----------------------------------------------------------------------------- ordinals
@pytest.mark.parametrize("query,ref", [
    ("first submit button", "e1"), ("second submit button", "e2"), ("3rd submit button", "e3"),
    ("last submit button", "e4"), ("second submit button not in header", "e3"),
    ("last login link except footer", "e6"),
])
def test_ordinals(query, ref):
    assert best(query, DUPLICATES) == ref


def test_first_name_is_a_field_not_an_ordinal():
    assert best("first name", DUPLICATES) == "e9"
    page = [{"ref": "e", "role": "textbox", "name": "Email"}, {"ref": "p", "role": "textbox", "name": "Phone"}]
    # no "first name" field on the page: still not an ordinal over the text boxes
    assert best("first name", page) == ""


def test_ordinal_out_of_range_falls_back_to_best_match():
    assert best("fifth submit button", DUPLICATES) in {"e1", "e2", "e3", "e4"}


# ----------------------------------------------------------------------------- positions / relations
GEOMETRY = [
    {"ref": "m", "role": "button", "name": "Menu", "positional": {"x": 20, "y": 20, "width": 80, "height": 32}},
    {"ref": "s", "role": "button", "name": "Settings", "positional": {"x": 900, "y": 20, "width": 80, "height": 32}},
    {"ref": "u", "role": "textbox", "name": "Username", "positional": {"x": 300, "y": 300, "width": 300, "height": 36}},
    {"ref": "e", "role": "textbox", "name": "Email", "positional": {"x": 300, "y": 350, "width": 300, "height": 36}},
    {"ref": "c", "role": "button", "name": "Cancel", "positional": {"x": 400, "y": 700, "width": 80, "height": 32}},
]


@pytest.mark.parametrize("query,ref", [
    ("button in the top right corner", "s"), ("button on the left side", "m"),
    ("button at the bottom of the page", "c"), ("input field below username", "e"),
    ("field above email", "u"),
])
def test_positions_and_relations(query, ref):
    assert best(query, GEOMETRY) == ref


def test_direction_word_in_a_label_is_text():
    page = [
        {"ref": "b", "role": "button", "name": "Back", "description": "left arrow"},
        {"ref": "f", "role": "button", "name": "Forward", "description": "right arrow"},
    ]
    assert best("left arrow", page) == "b"
    assert best("right arrow", page) == "f"


# ----------------------------------------------------------------------------- specifics
def test_missing_identifier_lowers_everything():
    rows = [
        {"ref": "r1", "role": "row", "name": "INV-1001 Alice Johnson $250.00 Paid"},
        {"ref": "d1", "role": "button", "name": "Download", "parent": "r1", "description": "Download PDF"},
        {"ref": "r2", "role": "row", "name": "INV-1002 Acme Corp $1,500.00 Pending"},
        {"ref": "d2", "role": "button", "name": "Download", "parent": "r2", "description": "Download PDF"},
    ]
    assert best("download invoice INV-1001", rows) == "d1"
    assert best("download invoice INV-1002", rows) == "d2"
    assert best("download invoice INV-1024", rows) == ""


def test_non_actionable_container_loses_to_control_with_same_words():
    page = [
        {"ref": "d", "role": "dialog", "name": "Confirm Delete"},
        {"ref": "b", "role": "button", "name": "Delete", "parent": "d"},
    ]
    assert best("confirm delete", page) == "b"


def test_unrelated_query_scores_low():
    res = find("weather forecast", LOGIN, threshold=0.0)
    assert res["score"] < 0.3


# ----------------------------------------------------------------------------- opposites, snapshot fields
@pytest.mark.parametrize("query,ref", [
    ("read reviews", "r"), ("write a review", "w"), ("log in", "i"), ("log out", "o"),
    ("show details", "s"), ("hide details", "h"),
])
def test_opposite_actions_are_not_confused(query, ref):
    page = [
        {"ref": "w", "role": "link", "name": "Write a review", "section": "Reviews"},
        {"ref": "r", "role": "tab", "name": "Reviews (12)"},
        {"ref": "o", "role": "button", "name": "Log out"},
        {"ref": "i", "role": "button", "name": "Log in"},
        {"ref": "h", "role": "button", "name": "Hide details"},
        {"ref": "s", "role": "button", "name": "Show details"},
    ]
    assert best(query, page) == ref


def test_heading_field_is_context():
    page = [
        {"ref": "a", "role": "button", "name": "Edit", "heading": "Shipping address"},
        {"ref": "b", "role": "button", "name": "Edit", "heading": "Payment method"},
    ]
    assert best("edit payment method", page) == "b"
    assert best("edit shipping address", page) == "a"


def test_positions_without_geometry_use_sections_and_order():
    page = [
        {"ref": "h", "role": "link", "name": "Home", "section": "Header"},
        {"ref": "m", "role": "link", "name": "Home", "section": "Main"},
        {"ref": "f", "role": "link", "name": "Home", "section": "Footer"},
    ]
    assert best("home link at the bottom", page) == "f"
    assert best("home link at the top", page) == "h"
    assert best("home link in the footer", page) == "f"


def test_relation_without_geometry_uses_document_order():
    page = [
        {"ref": "u", "role": "textbox", "name": "Username"},
        {"ref": "p", "role": "textbox", "name": "Password"},
        {"ref": "c", "role": "textbox", "name": "Captcha"},
    ]
    assert best("field below username", page) == "p"
    assert best("field above captcha", page) == "p"


def test_repeated_rows_with_row_context():
    rows = []
    for i, who in enumerate(["Alice Johnson", "Bob Smith", "Carol White"]):
        rows += [
            {"ref": f"r{i}", "role": "row", "name": f"{who} active"},
            {"ref": f"e{i}", "role": "button", "name": "Edit", "parent": f"r{i}"},
            {"ref": f"d{i}", "role": "button", "name": "Delete", "parent": f"r{i}"},
        ]
    assert best("edit Bob", rows) == "e1"
    assert best("delete Carol's row", rows) == "d2"
    assert best("second delete button", rows) == "d1"
    assert best("last edit button", rows) == "e2"



def test_a_match_on_what_a_collapsed_toggle_hides_says_to_open_it():
    page = [{"ref": "e0", "role": "button", "name": "Important dates", "expanded": False,
             "text": "Last login Date joined"},
            {"ref": "e1", "role": "button", "name": "Save"}]
    found = find("date joined", page)
    assert found["best_ref"] == "e0" and "expand it (click e0)" in found["hint"]
    assert "hint" not in find("important dates", page)


def test_an_unsure_answer_names_the_words_that_tell_its_candidates_apart():
    rows = [{"ref": f"e{i}", "role": "button", "name": "Delete", "item": f"{who} {country}"}
            for i, (who, country) in enumerate([("Alice Moreau", "FR"), ("Bob Tanaka", "JP"), ("Chen Wei", "CN")])]
    found = find("delete", rows)  # three equal matches: document order alone would decide
    assert found["distinguish"] == {"e0": "Alice Moreau FR", "e1": "Bob Tanaka JP", "e2": "Chen Wei CN"}
    perms = [{"ref": "e0", "role": "option", "name": "auth | permission | Can delete permission"},
             {"ref": "e1", "role": "option", "name": "auth | group | Can delete group"}]
    assert find("delete", perms)["distinguish"] == {"e0": "permission", "e1": "group"}
    assert "distinguish" not in find("Alice Moreau", rows + [{"ref": "e9", "role": "link", "name": "Alice Moreau"}])


def test_a_low_confidence_answer_names_the_words_that_tell_its_candidates_apart():
    page = [{"ref": "e0", "role": "link", "name": "Press room", "section": "Footer"},
            {"ref": "e1", "role": "link", "name": "Book", "section": "Header"},
            {"ref": "e2", "role": "link", "name": "Manage booking", "section": "Header"}]
    found = find("book a hotel room", page)  # the best is clear of the next, but only a low-confidence match
    assert found["confidence"] == "low" and found["score"] - found["matches"][1]["score"] > 0.08
    assert found["distinguish"] == {"e0": "Press room", "e1": "Book", "e2": "Manage booking"}
    assert "distinguish" not in find("book a hotel room", page, top_k=1)  # one candidate: nothing to tell apart
