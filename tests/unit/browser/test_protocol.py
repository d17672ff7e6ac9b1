"""``Tab`` implements ``Page``, the protocol the page helpers are written against."""

from __future__ import annotations

from pinchtab.browser.core.tab import Tab
from pinchtab.browser.page.protocol import Page
from pinchtab.find import IntentCache


class _Session:
    def on(self, event: str, handler: object) -> object:
        return lambda: None


def _members(protocol: type) -> set[str]:
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {n for n, v in vars(protocol).items() if not n.startswith("_") and (callable(v) or isinstance(v, property))}
    return names


def test_tab_has_every_member_of_page() -> None:
    tab = Tab("T1", _Session(), IntentCache())  # type: ignore[arg-type]
    members = _members(Page)
    assert {"send", "call_in_world", "refs", "frames", "generations", "world_id"} <= members
    missing = sorted(n for n in members if not hasattr(tab, n))
    assert not missing, f"Tab lacks {missing}"
