"""localStorage and sessionStorage of a tab's current origin: read, write, remove; and working in
another origin's storage without loading any of its pages (restoring a saved state)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pinchtab.browser.observe.interception import RouteRule
from pinchtab.errors import BadRequest

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

# Storage is per origin and shared by every world of a page, pinchtab's isolated one included.
READ_JS = r"""(type, key) => {
  const area = (name) => { try { return name === 'local' ? localStorage : sessionStorage; } catch (e) { return null; } };
  const read = (name) => {
    const s = area(name);
    if (!s || (type && type !== name)) return [];
    if (key !== null) { const v = s.getItem(key); return v === null ? [] : [{key, value: v}]; }
    const out = [];
    for (let i = 0; i < s.length; i++) { const k = s.key(i); out.push({key: k, value: s.getItem(k)}); }
    return out;
  };
  let denied = null;
  try { localStorage; } catch (e) { denied = String(e.message || e); }
  return {local: read('local'), session: read('session'), origin: location.origin, error: denied};
}"""

WRITE_JS = r"""(type, key, value) => {
  const s = type === 'local' ? localStorage : sessionStorage;
  if (value === null) { if (key === null) s.clear(); else s.removeItem(key); }
  else s.setItem(key, value);
  return location.origin;
}"""


async def read(tab: "Page", type: str | None, key: str | None) -> dict[str, Any]:
    out = await tab.eval_in_world(READ_JS, type or None, key)
    if not out.get("error"):
        out.pop("error", None)
    return out


async def write(tab: "Page", type: str, key: str | None, value: str | None) -> str:
    try:
        return await tab.eval_in_world(WRITE_JS, type, key, value)
    except Exception as exc:  # SecurityError on opaque origins (about:blank, data:), QuotaExceededError
        raise BadRequest(f"cannot write {type}Storage here: {exc}", "storage_unavailable") from exc


async def in_origin(tab: "Page", origin: str, work: Callable[[], Awaitable[Any]]) -> None:
    """Run ``work`` with the tab on an empty page of ``origin``: the page is answered by the tab
    itself (a network route), so no request reaches the site. The caller navigates on after."""
    if not origin.startswith(("http://", "https://")):
        raise BadRequest(f"cannot restore storage of {origin!r}: not an http(s) origin", "storage_restore_failed")
    url = origin.rstrip("/") + "/__pinchtab_restore__"
    rule = RouteRule(url, "fulfill", body="", content_type="text/plain")
    interceptor = tab.observer.interceptor
    await interceptor.add_rule(rule)
    try:
        await tab.navigate(url, timeout_ms=15000)
        await work()
    finally:
        await interceptor.remove_rules(url)
