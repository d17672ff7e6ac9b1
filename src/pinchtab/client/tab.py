"""A handle on one tab: the client's tab methods with the tab given once.

    tab = pt.tab(tab_id)          # or pt.tab() for the current tab, pt.open_tab(url) for a new one
    tab.navigate("https://example.com")
    tab.click("role:button Log in")   # a ref (e5) or a selector
    tab.fill("label:Email", "ada@example.com")
    print(tab.snapshot(format="compact"))

On an ``AsyncClient`` the same handle's methods return awaitables (``await tab.click(...)``).
"""

from __future__ import annotations

from typing import Any

from pinchtab.models.refs import as_ref


def target(ref_or_selector: str) -> dict[str, str]:
    """A ref (``e5``, ``ref:e5``) as ``ref``, anything else as ``selector`` (CSS, role:, label:, text:, ...)."""
    ref = as_ref(ref_or_selector)
    return {"ref": ref} if ref is not None else {"selector": ref_or_selector}


class Tab:
    """Tab ``id`` of ``client`` (None: the current tab, whichever it is when a call is made)."""

    def __init__(self, client: Any, id: str | None = None) -> None:
        self.client = client
        self.id = id

    def __repr__(self) -> str:
        return f"Tab({self.id or 'current'!r})"

    def navigate(self, url: str, **options: Any) -> Any:
        """Load ``url`` in this tab (``client.navigate`` options: timeout, wait_for, ...)."""
        return self.client.navigate(url, tab_id=self.id, current_tab=self.id is None, **options)

    def snapshot(self, **options: Any) -> Any:
        return self.client.snapshot(self.id, **options)

    def find(self, query: str, **options: Any) -> Any:
        return self.client.find(query, self.id, **options)

    def action(self, kind: str, ref_or_selector: str | None = None, **fields: Any) -> Any:
        """One action of ``kind`` on a ref or selector (or none: the page, the focus)."""
        where = target(ref_or_selector) if ref_or_selector else {}
        return self.client.action(kind, tab_id=self.id, **where, **fields)

    def click(self, ref_or_selector: str, **fields: Any) -> Any:
        return self.action("click", ref_or_selector, **fields)

    def fill(self, ref_or_selector: str, value: str, **fields: Any) -> Any:
        return self.action("fill", ref_or_selector, value=value, **fields)

    def type(self, ref_or_selector: str, text: str, **fields: Any) -> Any:
        return self.action("type", ref_or_selector, text=text, **fields)

    def press(self, key: str, ref_or_selector: str | None = None, **fields: Any) -> Any:
        return self.action("press", ref_or_selector, key=key, **fields)

    def hover(self, ref_or_selector: str, **fields: Any) -> Any:
        return self.action("hover", ref_or_selector, **fields)

    def select(self, ref_or_selector: str, value: str, **fields: Any) -> Any:
        return self.action("select", ref_or_selector, value=value, **fields)

    def text(self, **options: Any) -> Any:
        return self.client.text(self.id, **options)

    def screenshot(self, **options: Any) -> Any:
        return self.client.screenshot(self.id, **options)

    def evaluate(self, expression: str) -> Any:
        return self.client.evaluate(expression, self.id)

    def wait(self, **condition: Any) -> Any:
        return self.client.wait(tab_id=self.id, **condition)

    def close(self) -> Any:
        return self.client.close_tab(self.id)
