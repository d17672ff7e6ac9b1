"""The shortcuts of find's index build give what the plain computations give, bit for bit.

(``bench/find_build.py --golden`` checks every evaluation set; these are the invariants.)
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pinchtab.config import load_config
from pinchtab import heap
from pinchtab.find import ElementIndex, HashingEmbedder
from pinchtab.find.index import embedding, pageindex, parts
from pinchtab.find.index.postings import KeyRank
from pinchtab.find.passes import item_action

DEV = Path(__file__).resolve().parents[3] / "fixtures" / "find_dev"


def _elements(name: str) -> list[dict]:
    return json.loads((DEV / name / "snapshot.json").read_text())


def _big_page(n: int = 600) -> list[dict]:
    """``n`` elements cycling through a few sections and parents (contexts repeat)."""
    els = []
    for i in range(n):
        els.append({"ref": f"e{i}", "role": ("button", "link", "textbox")[i % 3], "name": f"Item {i} edit",
                    "section": f"Section {i % 7}", "parent": f"Row group {i % 5}"})
    return els


def test_key_rank_answers_like_a_dict() -> None:
    kids = [2, 5, 9, 40]
    rank = KeyRank(kids)
    d = {k: t for t, k in enumerate(kids)}
    for j in (None, 0, 2, 3, 5, 9, 10, 40, 41):
        assert rank.get(j) == d.get(j)
        assert rank.get(j, -1) == d.get(j, -1)
    assert len(rank) == 4 and KeyRank([]).get(3) is None


def test_page_vocabulary_is_the_word_keys_of_own_text_and_context() -> None:
    index = ElementIndex(_elements("settings-page"))
    page = index._page
    specs = parts.part_cache(index._emb)
    ids = set()
    for t in (page.content, page.context):
        ids.update(t.kids.tolist())
    words = {specs.strs[j] for j in ids if specs.kinds[j] >= 1}
    typo_words = {specs.strs[j] for j in ids if specs.kinds[j] >= 2}
    assert words and typo_words < words
    for w in set(specs.strs[:5000]) | {"nonexistentword", ""}:
        assert (w in page.vocab) == (w in words)
        assert (w in page.fuzzy) == (w in typo_words)


def _matrices(index: ElementIndex) -> tuple[bytes, bytes]:
    return index._page.matrix.tobytes(), index._page.ctx_matrix.tobytes()


def test_shared_context_rows_and_reused_sums_give_the_same_matrices(monkeypatch) -> None:
    els = _big_page()
    plain = _matrices(ElementIndex(els))  # shared context rows (600 rows, 35 contexts), reused sums
    monkeypatch.setattr(pageindex, "SHARED_ROWS_MIN", 10**9)
    monkeypatch.setattr(embedding, "SCRATCH_MAX", 0)  # every sum in a fresh bincount
    assert _matrices(ElementIndex(els)) == plain


def test_own_text_parts_cached_by_texts_keep_the_identity_rule() -> None:
    # a text that *is* the value (the same object) weighs as the value; an equal copy does not
    value = "Express shipping option"
    same = {"ref": "e1", "role": "radio", "name": "Shipping", "label": value, "value": value}
    copy = {"ref": "e1", "role": "radio", "name": "Shipping", "label": "".join(value), "value": value}
    assert copy["label"] is not value
    queries = ["express shipping", "shipping option", "radio express"]

    def results(els: list[dict]) -> list[dict]:
        idx = ElementIndex(els + [{"ref": "e2", "role": "button", "name": "Continue"}])
        out = []
        for q in queries:
            r = idx.find(q, threshold=0.0, top_k=5, explain=True)
            r.pop("latency_ms")
            out.append(r)
        return out

    parts.PART_CACHES.clear()
    cold_same = results([same])
    parts.PART_CACHES.clear()
    cold_copy = results([copy])
    assert results([same]) == cold_same and results([copy]) == cold_copy  # warm, both cached


def test_item_action_parse_is_cached_per_text() -> None:
    q = "add the pad thai to my order"
    assert item_action.parse(q) == item_action._parse(q)
    assert item_action.parse(q) is item_action.parse(q)
    assert item_action.parse("settings") is None


def test_heap_pad_bounds_and_config_key() -> None:
    with pytest.raises(ValueError):
        heap.set_top_pad(-1)
    with pytest.raises(ValueError):
        heap.set_top_pad(heap.MAX_PAD_MB + 1)
    if heap._mallopt() is not None:  # glibc
        assert heap.set_top_pad(4) and heap._applied == [4 << 20]
        assert heap.set_top_pad(0) and heap._applied == [128 * 1024]
        assert heap.set_top_pad(heap.DEFAULT_PAD_MB)
    assert load_config(environ={}).find.heap_pad_mb == heap.DEFAULT_PAD_MB
    assert load_config(environ={"PINCHTAB_FIND_HEAP_PAD_MB": "0"}).find.heap_pad_mb == 0


def test_matrix_from_features_sums_in_input_order_either_way(monkeypatch) -> None:
    emb = HashingEmbedder()
    rng = np.random.default_rng(3)
    n = 40
    rows = np.sort(rng.integers(0, n, 3000))
    slots = rng.integers(0, emb.dim, 3000)
    vals = rng.standard_normal(3000) * 1e-3 + rng.standard_normal(3000)
    reused = emb.matrix_from_features(n, rows, slots, vals)
    monkeypatch.setattr(embedding, "SCRATCH_MAX", 0)
    assert emb.matrix_from_features(n, rows, slots, vals).tobytes() == reused.tobytes()
