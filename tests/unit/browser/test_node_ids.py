"""The table of backend ids the walker does not serialise again (browser/node_ids.py)."""

from __future__ import annotations

import pytest

from pinchtab.browser.page.node_ids import NodeIds


def page(ks: list[int], epoch: str = "a", known: int = 0) -> dict:
    return {"k": ks, "epoch": epoch, "known": known, "url": "u"}


def test_fresh_nodes_fill_the_table_and_known_ones_come_from_it() -> None:
    ids = NodeIds()
    p = page([0, 1, 2])
    assert ids.resolve(p, 3, [10, 11, 12]) == [10, 11, 12]
    assert p == {"url": "u"} and ids.epoch == "a" and ids.args() == {"epoch": "a", "known": 3}
    # the walker skipped 0-2 (known); 3 is new; order changed
    assert ids.resolve(page([2, 3, 0], known=3), 3, [13]) == [12, 13, 10]
    assert ids.known == 4


def test_a_new_epoch_forgets_the_old_table() -> None:
    ids = NodeIds()
    ids.resolve(page([0, 1]), 2, [10, 11])
    assert ids.resolve(page([0], epoch="b"), 1, [20]) == [20]
    assert ids.epoch == "b" and ids.ids == {0: 20}


def test_an_unknown_skipped_node_is_an_error() -> None:
    ids = NodeIds()
    ids.resolve(page([0]), 1, [10])
    with pytest.raises(KeyError):
        ids.resolve(page([5], known=6), 1, [])


def test_gaps_never_count_as_known() -> None:
    ids = NodeIds()
    ids.resolve(page([0, 1, 5]), 3, [10, 11, 15])  # 2-4 were numbered in a walk that never answered
    assert ids.known == 2  # so the walker sends 5 again next time
