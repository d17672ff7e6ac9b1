"""A tab reopened under a new target id (after a crash, or replaced because its page would not let
go) keeps the id it was first known by: the old id resolves, listings name the first id."""

from __future__ import annotations

from pinchtab.browser.core.tab_restore import TabRestore


def test_a_moved_tab_keeps_its_first_id_through_two_moves() -> None:
    restore = TabRestore(max_tabs=10)
    restore.moved("A", "B")
    restore.moved("B", "C")
    assert restore.resolve("A") == "C" and restore.resolve("B") == "C"
    assert restore.public("C") == "A" and restore.public("X") == "X"
    restore.closed("C")
    assert restore.public("C") == "C"
