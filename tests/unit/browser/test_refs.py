"""RefCache: refs are element identities (no browser needed)."""

from __future__ import annotations

import pytest

from pinchtab.browser.page.refs import RefCache, StaleRef
from pinchtab.browser.page.nodes import Node
from pinchtab.errors import NotFound


def nodes(*ids: int | None, scope: str = "") -> list[Node]:
    return [Node("", "button", f"b{i}", 0, i, scope=scope) for i in ids]


def test_an_element_keeps_its_ref_and_a_new_one_gets_the_next_number() -> None:
    cache = RefCache()
    first = nodes(10, 11, 12)
    cache.identify(first, {"": 0})
    assert [n.ref for n in first] == ["e0", "e1", "e2"]
    later = nodes(12, 13, 10)  # a filtered or re-ordered view, one new element
    cache.identify(later, {"": 0})
    assert [n.ref for n in later] == ["e2", "e3", "e0"]
    assert cache.entry("e1", {"": 0}).node.backend_id == 11


def test_a_new_document_gives_new_refs_and_makes_old_ones_stale() -> None:
    cache = RefCache()
    cache.identify(nodes(1, 2), {"": 0})
    again = nodes(1, 2)  # a new renderer numbers its nodes from 1 again
    cache.identify(again, {"": 1})
    assert [n.ref for n in again] == ["e2", "e3"]
    with pytest.raises(StaleRef):
        cache.entry("e0", {"": 1})
    assert cache.entry("e2", {"": 1}).node is again[0]


def test_scopes_keep_equal_node_ids_apart() -> None:
    cache = RefCache()
    a, b = nodes(5), nodes(5, scope="frame-session")
    cache.identify(a + b, {"": 0, "frame-session": 0})
    assert a[0].ref != b[0].ref
    with pytest.raises(StaleRef):  # the frame's session is gone
        cache.entry(b[0].ref, {"": 0})


def test_bounded_the_least_recently_seen_are_forgotten_as_stale() -> None:
    cache = RefCache(max_refs=100)
    cache.identify(nodes(*range(100)), {"": 0})
    cache.identify(nodes(0), {"": 0})  # seen again: kept
    cache.identify(nodes(*range(100, 150)), {"": 0})
    assert len(cache) == 100
    assert cache.entry("e0", {"": 0}).node.backend_id == 0
    with pytest.raises(StaleRef):
        cache.entry("e1", {"": 0})
    with pytest.raises(NotFound) as unknown:
        cache.entry("e999", {"": 0})
    assert unknown.value.code == "ref_not_found"
    assert "this tab's refs are e0..e149" in str(unknown.value)  # a ref of another tab, most likely
    fresh = nodes(1)
    cache.identify(fresh, {"": 0})
    assert fresh[0].ref == "e150"  # forgotten elements come back with new numbers


def test_nodes_without_a_dom_id_get_fresh_refs() -> None:
    cache = RefCache()
    a, b = nodes(None), nodes(None)
    cache.identify(a, {"": 0})
    cache.identify(b, {"": 0})
    assert a[0].ref != b[0].ref
