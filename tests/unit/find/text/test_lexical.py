"""pinchtab.find lexical layer and query parsing (no browser)."""

from __future__ import annotations

import numpy as np
import pytest

from pinchtab.find import HashingEmbedder, parse_query
from pinchtab.find.text.fuzzy import FuzzyIndex, osa_distance
from pinchtab.find.text.lexical import analyze_text, query_units, stem, words


@pytest.mark.parametrize("text,expected", [
    ("Sign In", ["sign", "in"]),
    ("SignIn", ["sign", "in"]),
    ("e-mail address", ["e", "mail", "address"]),
    ("INV-1003", ["inv", "1003"]),
    ("$1,500.00 total", ["$", "1500.00", "total"]),
    ("3rd link", ["3rd", "link"]),
    ("Emma's role", ["emma", "role"]),
    ("Reviews\u00a0(42)", ["reviews", "42"]),
])
def test_words(text, expected):
    assert words(text) == expected


@pytest.mark.parametrize("a,b", [
    ("bounties", "bounty"), ("bountied", "bounty"), ("logged", "log"), ("settings", "setting"),
    ("searches", "search"), ("saved", "save"), ("sharing", "share"), ("images", "image"),
])
def test_stem_conflates_inflections(a, b):
    assert stem(a) == stem(b)


@pytest.mark.parametrize("w", ["news", "status", "setting", "billing"])
def test_stem_keeps_distinct_words(w):
    assert stem(w) not in {"new", "statu", "set", "bill"}


def test_theme_is_not_a_stop_word():
    assert "them" in analyze_text("Select Theme").stems or stem("theme") in analyze_text("Select Theme").stems
    assert [u.text for u in query_units("theme dropdown")] == ["theme", "dropdown"]


def test_concepts_from_phrases_words_and_joins():
    assert "c:login" in analyze_text("Log in").concepts
    assert "c:login" in analyze_text("Sign In").concepts
    assert "c:login" in analyze_text("LOGIN").concepts
    assert "c:logout" in analyze_text("Log Out").concepts
    assert "c:signup" in analyze_text("Create an account").concepts
    assert "c:settings" in analyze_text("gear icon").concepts
    assert "logout" in analyze_text("Log Out").compounds
    assert "c:login" not in analyze_text("Sign up").concepts


def test_query_units_phrases_and_roles():
    units = query_units("keep me logged in")
    assert len(units) == 1 and ("c:remember", 0.9) in units[0].concepts
    units = query_units("click the check box")
    assert [u.role for u in units if u.role] == ["checkbox"]
    # "search box" keeps its role word (it is "search" + a role word, not an opaque phrase)
    units = query_units("search box")
    assert [u.text for u in units] == ["search", "box"] and units[1].role == "box"
    units = query_units("first name")
    assert len(units) == 1 and units[0].phrase


def test_osa_distance():
    assert osa_distance("password", "pasword") == 1
    assert osa_distance("sigin", "signin") == 1
    assert osa_distance("form", "from") == 1  # transposition
    assert osa_distance("settings", "sittings") == 1
    assert osa_distance("abc", "xyz", limit=1) == 2


def test_fuzzy_index():
    fx = FuzzyIndex(["password", "signin", "sign", "configuration", "inv", "email"])
    assert {w for w, _ in fx.typos("pasword")} == {"password"}
    assert {w for w, _ in fx.typos("sigin")} >= {"signin", "sign"}
    assert fx.typos("xyz") == []
    assert fx.completions("config") == ["configuration"]
    assert fx.prefixes_of("invoice") == ["inv"]


def test_parse_structure():
    pq = parse_query("second submit button not in header")
    assert pq.ordinal == 2
    assert [[t.unit.text for t in g] for g in pq.exclude] == [["header"]]
    assert [t.role for t in pq.terms if t.role] == ["button"]

    pq = parse_query("last login link except footer")
    assert pq.ordinal == -1 and pq.exclude

    pq = parse_query("first name")
    assert pq.ordinal is None

    pq = parse_query("search in the header")
    assert [(t.unit.text, t.ctx) for t in pq.terms] == [("search", False), ("header", True)]

    pq = parse_query("button in top right corner")
    assert set(pq.directions) == {"top", "right"} and [t.role for t in pq.terms] == ["button"]

    pq = parse_query("cancel button below password")
    assert pq.relation is not None and pq.relation[0] == "below"
    assert [t.unit.text for t in pq.relation[1]] == ["password"]

    pq = parse_query("Emma's role")
    assert [(t.unit.text, t.ctx) for t in pq.terms] == [("role", False), ("emma", True)]

    pq = parse_query("click the sign in button")
    assert [t.bonus for t in pq.terms] == [True, False, False]


def test_literal_guards_use_page_text():
    # "not now" is an option on the page: not a negation
    pq = parse_query("not now", lambda a, b: (a, b) == ("not", "now"))
    assert not pq.exclude
    # "left arrow" is an icon description: not a position
    assert parse_query("left arrow", lambda a, b: (a, b) == ("left", "arrow")).directions == ()
    # "last page" link: not an ordinal
    assert parse_query("last page").ordinal is None


def test_embedding_is_deterministic_and_normalised():
    e = HashingEmbedder()
    a, b = e.embed("Sign in to your account"), e.embed("Sign in to your account")
    assert np.array_equal(a, b)
    assert a.dtype == np.float32 and a.shape == (e.dim,)
    assert float(np.linalg.norm(a)) == pytest.approx(1.0, abs=1e-5)
    assert float(a @ e.embed("sign in")) > float(a @ e.embed("delete repository"))
    # synonyms and typos are closer than unrelated words
    assert float(e.embed("log in") @ e.embed("sign in")) > float(e.embed("log in") @ e.embed("download"))
    assert float(e.embed("pasword") @ e.embed("password")) > 0.3
    assert not e.embed("").any()
