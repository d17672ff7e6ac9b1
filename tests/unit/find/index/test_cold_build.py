"""The first build of a page never seen: the shortcuts of the text pipeline and of the part
cache give what the plain code gave (the whole-corpus check is ``bench/find_build.py --golden``)."""

from __future__ import annotations

import random

import pytest

from pinchtab.find import ElementIndex, HashingEmbedder
from pinchtab.find.index import parts
from pinchtab.find.text import lexical
from pinchtab.find.text.lexical import analyze_text, normalize
from pinchtab.find.weights import Q_COMPOUND

TEXTS = [
    "Sign in", "Log Out", "logIn", "HTMLParser", "getURLForID", "Emma's role", "Emma’s role", "don't stop",
    "rock 'n' roll", "1,500 items", "1,50", "$1,500.00 total", "a,b,c", "Q&A", "Terms\u00a0&\u00a0Conditions",
    "Loading…", "Ünïcödé café", "ＦＵＬＬ width", "Sesión iniciada", "日本語 テキスト", "ΣΊΣΥΦΟΣ", "", " ",
    "INV-1003", "Reviews (42)", "e-mail address", "Two-factor authentication", "play audio version",
    "turn off notifications", "create an account", "log in with Google", "Save & close", "DELETE", "McDonald's",
]


def test_normalize_skips_only_substitutions_that_cannot_match() -> None:
    # what the shortcuts rest on: a text equal to its lowercase has no camelCase boundary,
    # one without an apostrophe no possessive, one without a comma no digit group
    rng = random.Random(7)
    alphabet = "aZbYé1,2'’ s&\u00a0…ÀΣ3"
    samples = TEXTS + ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(3000)]
    for t in samples:
        if t.lower() == t:
            assert lexical._CAMEL.search(t) is None, t
        if "'" not in t and "’" not in t:
            assert lexical._POSS.search(t) is None and lexical._APOS.search(t) is None, t
        if "," not in t:
            assert lexical._DIGIT_SEP.search(t) is None, t


@pytest.mark.parametrize("text, expected", [
    ("logIn", "log in"), ("HTMLParser", "html parser"), ("Emma’s role", "emma role"), ("don't stop", "dont stop"),
    ("1,500 items", "1500 items"), ("1,50", "1,50"), ("Q&A", "q and a"), ("Terms\u00a0&\u00a0Conditions",
    "terms  and  conditions"), ("Loading…", "loading..."), ("Sesión", "sesion"), ("ＦＵＬＬ", "full"), ("DELETE", "delete"),
    ("McDonald's", "mc donald"), ("", ""),
])
def test_normalize(text: str, expected: str) -> None:
    assert normalize.__wrapped__(text) == expected


def _longest_phrase_at(stems: list[str], i: int) -> int:
    """Length of the longest phrase at ``stems[i]``, every length tried (0: none)."""
    return next((n for n in range(min(lexical._MAX_PHRASE, len(stems) - i), 1, -1)
                 if tuple(stems[i:i + n]) in lexical._PHRASES or tuple(stems[i:i + n]) in lexical._PHRASE_ROLE), 0)


def test_phrase_table_by_first_stem_bounds_every_phrase() -> None:
    for ph in (*lexical._PHRASES, *lexical._PHRASE_ROLE):
        assert lexical._PHRASE_FIRST[ph[0]] >= len(ph), ph


def test_phrase_matching_skips_only_positions_no_phrase_starts_at() -> None:
    assert lexical._MAX_PHRASE >= 3
    words_ = sorted({w for ph in (*lexical._PHRASES, *lexical._PHRASE_ROLE) for w in ph}) + ["save", "row", "7"]
    rng = random.Random(13)
    for _ in range(3000):
        stems = [rng.choice(words_) for _ in range(rng.randint(0, 9))]
        got = lexical._match_phrases(stems)
        i, starts = 0, []
        while i < len(stems):  # greedy longest matches, every length tried at every position
            n = _longest_phrase_at(stems, i)
            if n:
                starts.append(i)
                i = next(h[1] for h in got if h[0] == i)  # where the match (and its overlaps) ends
            else:
                i += 1
        assert [h[0] for h in got] == starts, stems
    phrase = list(next(p for p in lexical._PHRASES if len(p) >= 2))
    assert lexical._match_phrases(["x", *phrase, "y"])[0][:2] == (1, 1 + len(phrase))


def _post_reference(text: str, w: float, joins: bool) -> dict[str, float]:
    """PartCache.post as it was: per weight, the largest value of each key."""
    keys = analyze_text(text) if joins else analyze_text(text, joins=False)
    items: dict[str, float] = {}
    get = items.get
    for raw, k in zip(keys.raw, keys.stems):
        sw = w if raw == k else w * lexical.STEM_ONLY
        if get(k, 0.0) < sw:
            items[k] = sw
        if raw != k:
            k = lexical.SURFACE + raw
            if get(k, 0.0) < w:
                items[k] = w
    if joins:
        cw = w * Q_COMPOUND
        for k in keys.compounds:
            if get(k, 0.0) < cw:
                items[k] = cw
    for k in keys.concepts:
        if get(k, 0.0) < w:
            items[k] = w
    return items


@pytest.mark.parametrize("joins", [True, False])
def test_posting_keys_worked_out_once_give_each_weight_its_values(joins: bool) -> None:
    cache = parts.PartCache()
    for text in TEXTS + ["loggings logged in", "replies reply"]:
        for w in (1.0, 0.9, 0.75, 0.55, 0.45, 0.35, 1e-300, 0.0, -1.0):
            ids, vals = cache.post(text, w, joins)
            got = dict(zip((cache.strs[j] for j in ids), vals))
            want = _post_reference(text, w, joins)
            assert list(got) == list(want) and list(got.values()) == list(want.values()), (text, w)


def test_name_part_has_the_keys_of_the_name() -> None:
    emb = HashingEmbedder()
    cache = parts.PartCache()
    for text in TEXTS:
        if not text.strip():
            continue
        own = cache.own(emb, text, 0.8, 0.7)
        pid, _ = cache.name(text)
        assert pid == own  # an own part of the same text: no part of its own
        arr = cache.arrays()
        off, n = int(arr.k_off[pid]), int(arr.k_len[pid])
        assert {cache.strs[j] for j in arr.keys[off:off + n].tolist()} == analyze_text(text).keys()
    pid, _ = cache.name("Never posted before")  # no own part: a part of the keys
    arr = cache.arrays()
    off, n = int(arr.k_off[pid]), int(arr.k_len[pid])
    assert {cache.strs[j] for j in arr.keys[off:off + n].tolist()} == analyze_text("Never posted before").keys()


def test_typo_index_takes_a_pages_words_on_first_lookup() -> None:
    parts.PART_CACHES.clear()
    page = [{"ref": "e1", "role": "button", "name": "Shopping cart"},
            {"ref": "e2", "role": "link", "name": "Gift card"},
            {"ref": "e3", "role": "link", "name": "Preferences"}]
    idx = ElementIndex(page)
    cache = parts.part_cache(HashingEmbedder())
    assert cache.fuzzy.size == 0  # the build left the typo index alone
    # "carx": a typo of two page words (the query is not corrected), so its term looks them
    # up in the index, brought up to date
    assert idx._terms.corrected("carx") == "carx"
    res = idx.find("carx")
    assert res["best_ref"] in ("e1", "e2")
    assert cache.fuzzy.size >= 2
    assert idx.find("prefrences")["best_ref"] == "e3"
