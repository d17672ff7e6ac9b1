"""pinchtab.find.IntentCache: per-tab records, LRU bounds, TTL (no browser)."""

from __future__ import annotations

import threading

import pytest

from pinchtab.find import ElementIndex, IntentCache, find


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


PAGE = [
    {"ref": "e1", "role": "textbox", "name": "Email"},
    {"ref": "e2", "role": "button", "name": "Sign in", "section": "Login"},
]


def desc(ref="e2"):
    return ElementIndex(PAGE).get(ref)


def test_record_and_lookup():
    cache = IntentCache()
    rec = cache.record("tab1", "e2", "sign in button", desc(), 0.91, "high")
    got = cache.lookup("tab1", "e2")
    assert got == rec
    assert got.query == "sign in button" and got.descriptor.name == "Sign in" and got.score == 0.91
    assert got.confidence == "high" and got.tab_id == "tab1" and got.ref == "e2"
    assert cache.lookup("tab1", "e1") is None
    assert cache.lookup("tab2", "e2") is None  # per tab
    assert ("tab1", "e2") in cache and len(cache) == 1


def test_record_result_from_find():
    idx = ElementIndex(PAGE)
    cache = IntentCache()
    res = idx.find("log in")
    rec = cache.record_result("t", "log in", res, idx)
    assert rec is not None and rec.ref == res["best_ref"] == "e2"
    assert rec.score == res["score"] and rec.confidence == res["confidence"]
    # nothing found -> nothing recorded
    empty = find("upload a video", PAGE)
    assert cache.record_result("t", "upload a video", empty, idx) is None
    assert len(cache) == 1


def test_rerecording_same_ref_replaces():
    cache = IntentCache()
    cache.record("t", "e2", "old", desc(), 0.5, "low")
    cache.record("t", "e2", "new", desc(), 0.9, "high")
    assert len(cache) == 1 and cache.lookup("t", "e2").query == "new"


def test_ttl_expiry():
    clock = Clock()
    cache = IntentCache(ttl=60, clock=clock)
    cache.record("t", "e2", "q", desc(), 0.9, "high")
    clock.t += 59
    assert cache.lookup("t", "e2") is not None
    clock.t += 2
    assert cache.lookup("t", "e2") is None
    assert len(cache) == 0  # purged on lookup


def test_purge_removes_only_expired():
    clock = Clock()
    cache = IntentCache(ttl=10, clock=clock)
    cache.record("t", "a", "q", desc(), 0.9, "high")
    clock.t += 8
    cache.record("t", "b", "q", desc(), 0.9, "high")
    clock.t += 5
    assert cache.purge() == 1
    assert cache.lookup("t", "a") is None and cache.lookup("t", "b") is not None
    assert [r.ref for r in cache.for_tab("t")] == ["b"]


def test_global_lru_bound():
    cache = IntentCache(max_entries=3, max_per_tab=10)
    for i in range(3):
        cache.record(f"t{i}", "e2", "q", desc(), 0.9, "high")
    cache.lookup("t0", "e2")  # t0 becomes most recently used
    cache.record("t3", "e2", "q", desc(), 0.9, "high")
    assert len(cache) == 3
    assert cache.lookup("t1", "e2") is None  # least recently used evicted
    assert cache.lookup("t0", "e2") is not None


def test_per_tab_bound():
    cache = IntentCache(max_entries=100, max_per_tab=2)
    cache.record("other", "x", "q", desc(), 0.9, "high")
    for ref in ("a", "b", "c"):
        cache.record("t", ref, "q", desc(), 0.9, "high")
    assert [r.ref for r in cache.for_tab("t")] == ["b", "c"]
    assert cache.lookup("other", "x") is not None  # other tabs untouched


def test_forget_tab_and_ref():
    cache = IntentCache()
    for ref in ("a", "b"):
        cache.record("t", ref, "q", desc(), 0.9, "high")
    cache.record("u", "a", "q", desc(), 0.9, "high")
    assert cache.forget("t", "a") == 1 and cache.forget("t", "a") == 0
    assert cache.forget("t") == 1
    assert cache.for_tab("t") == [] and cache.lookup("u", "a") is not None
    cache.clear()
    assert len(cache) == 0


@pytest.mark.parametrize("kw", [{"max_entries": 0}, {"ttl": 0}, {"max_per_tab": 0}])
def test_invalid_bounds(kw):
    with pytest.raises(ValueError):
        IntentCache(**kw)


def test_thread_safety():
    cache = IntentCache(max_entries=50, max_per_tab=50)
    d = desc()

    def work(k: int) -> None:
        for i in range(200):
            cache.record(f"t{k}", f"e{i}", "q", d, 0.9, "high")
            cache.lookup(f"t{k}", f"e{i // 2}")

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(cache) == 50
