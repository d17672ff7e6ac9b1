"""find's index build: the cached, vectorised build gives what the per-element one gave.

The golden check over every evaluation set is ``bench/find_build.py --golden``; these are the
invariants it rests on, small enough for the unit suite.
"""

from __future__ import annotations

import dataclasses
import json
import random
import threading
from pathlib import Path

import numpy as np
import pytest

from pinchtab.find import ElementDescriptor, ElementIndex, HashingEmbedder, build_descriptors
from pinchtab.find.index import parts
from pinchtab.find.text.fuzzy import FuzzyIndex, GrowingFuzzyIndex, fuzzy_word

DEV = Path(__file__).resolve().parents[3] / "fixtures" / "find_dev"


def _page(name: str) -> tuple[list[dict], list[str]]:
    d = DEV / name
    return json.loads((d / "snapshot.json").read_text()), [q["query"] for q in json.loads((d / "queries.json").read_text())]


def _results(index: ElementIndex, queries: list[str]) -> list[dict]:
    out = []
    for q in queries:
        for threshold in (0.3, 0.0):
            r = index.find(q, threshold=threshold, top_k=10, explain=True)
            r.pop("latency_ms")
            out.append(r)
    return out


def test_texts_features_sum_to_the_same_matrix_as_feature_dicts() -> None:
    emb = HashingEmbedder()
    rng = random.Random(5)
    vocab = ["Sign in", "Log out", "INV-1003", "$1,500.00 total", "Reviews (42)", "e-mail address", "Save",
             "Delete row 7", "Settings", "Notifications", "Two-factor authentication", "Ünïcödé café", ""]
    rows = [[(rng.choice(vocab), rng.choice((1.0, 0.7, 0.5, 0.35, 0.6))) for _ in range(rng.randint(0, 5))]
            for _ in range(40)]
    accs = []
    r_idx, slots, vals = [], [], []
    for r, texts in enumerate(rows):
        acc: dict[int, float] = {}
        emb.add_feature(acc, "r:button", 0.5)
        s, v = emb.feature_features("r:button", 0.5)
        r_idx += [r] * len(s)
        slots += s
        vals += v
        for text, w in texts:
            emb.add_text(acc, text, w)
            s, v = emb.text_features(text, w)
            r_idx += [r] * len(s)
            slots += s
            vals += v
        accs.append(acc)
    want = emb.matrix(accs)
    got = emb.matrix_from_features(len(rows), np.array(r_idx, dtype=np.int64), np.array(slots, dtype=np.int64),
                                   np.array(vals, dtype=np.float64))
    assert got.dtype == want.dtype and got.tobytes() == want.tobytes()


def test_growing_fuzzy_index_answers_like_a_fuzzy_index_of_the_subset() -> None:
    everything = ["password", "passwords", "passport", "configuration", "config", "signin", "sign", "email",
                  "emails", "invoice", "inv", "quantity", "qty", "settings", "setting", "notification", "notes"]
    page = {"password", "configuration", "sign", "email", "inv", "invoice", "settings", "notes"}
    grown = GrowingFuzzyIndex()
    grown.add([w for w in everything[:7] if fuzzy_word(w)])
    grown.add([w for w in everything[7:] if fuzzy_word(w)])
    plain = FuzzyIndex(page)
    probes = ["pasword", "passwrod", "configuraton", "confi", "emial", "signn", "invoices", "invo", "setings",
              "noets", "xyz", "qty", "settingsx", "configurations"]
    for w in probes:
        assert sorted(grown.typos(w, page.__contains__)) == sorted(plain.typos(w)), w
        assert grown.completions(w, page.__contains__) == plain.completions(w), w
        assert grown.prefixes_of(w, page.__contains__) == plain.prefixes_of(w), w


def test_descriptors_are_ordinary_frozen_dataclass_instances() -> None:
    d = build_descriptors([{"ref": "e1", "role": "button", "name": " Save ", "parent": "Form"}])[0]
    assert d == d and dataclasses.is_dataclass(d)
    same = ElementDescriptor(**{f.name: getattr(d, f.name) for f in dataclasses.fields(d)})
    assert dataclasses.astuple(same) == dataclasses.astuple(d)
    assert d.name == "Save" and d.parent == "Form"
    with pytest.raises(dataclasses.FrozenInstanceError):
        d.name = "x"  # type: ignore[misc]


def test_results_do_not_depend_on_what_the_caches_hold(monkeypatch) -> None:
    elements, queries = _page("settings-page")
    other, _ = _page("webmail-inbox")
    parts.PART_CACHES.clear()
    cold = _results(ElementIndex(elements), queries)
    ElementIndex(other)  # another page in between
    assert _results(ElementIndex(elements), queries) == cold  # warm: the page's parts are cached
    # caches reset while pages are built (tiny limits)
    monkeypatch.setattr(parts, "SPEC_CACHE_MAX", 40)
    monkeypatch.setattr(parts, "SPEC_ARENA_MAX", 300)
    for _ in range(3):
        ElementIndex(other)
        assert _results(ElementIndex(elements), queries) == cold


def test_indexes_built_in_threads_are_the_same() -> None:
    pages = [_page(n) for n in ("settings-page", "webmail-inbox", "travel-booking", "docs-site")]
    parts.PART_CACHES.clear()
    want = [_results(ElementIndex(els), qs[:15]) for els, qs in pages]
    parts.PART_CACHES.clear()
    got: list = [None] * len(pages)

    def work(k: int) -> None:
        els, qs = pages[k]
        got[k] = _results(ElementIndex(els), qs[:15])

    threads = [threading.Thread(target=work, args=(k,)) for k in range(len(pages))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert got == want


def test_empty_and_textless_pages() -> None:
    assert ElementIndex([]).find("save")["best_ref"] == ""
    index = ElementIndex([{"ref": "e1"}, {"ref": "e2", "role": "button"}, {"ref": "e3", "name": "⋮"}])
    assert len(index) == 3
    assert index.find("button")["best_ref"] == "e2"
