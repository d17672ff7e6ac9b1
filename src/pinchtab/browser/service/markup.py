"""GET /html and GET /styles: an element's (or the document's) outer HTML and computed styles."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import targets

if TYPE_CHECKING:
    from pinchtab.models.markup import HtmlQuery, StylesQuery
    from pinchtab.browser.core.browser import Browser
    from pinchtab.browser.core.tab import Tab

# `this` is the element (or null for the document); answers what the route reports.
INSPECT_JS = r"""function (kind) {
  const el = this && this.nodeType === 1 ? this : (this && this.parentElement) || document.documentElement;
  const doc = el.ownerDocument;
  const out = { url: doc.location.href, title: doc.title };
  if (kind === 'html') { out.html = el.outerHTML; return out; }
  const cs = doc.defaultView.getComputedStyle(el);
  out.styles = {};
  for (let i = 0; i < cs.length; i++) out.styles[cs[i]] = cs.getPropertyValue(cs[i]);
  return out;
}"""

DOCUMENT_JS = "(kind) => (" + INSPECT_JS + ").call(null, kind)"


async def _inspect(tab: "Tab", raw: str | None, kind: str) -> dict[str, Any]:
    if raw:
        node = await targets.resolve(tab, raw)
        assert node.backend_id is not None
        res = await tab.call_on_node(node.backend_id, INSPECT_JS, kind, scope=node.scope, frame_id=node.frame_id)
    else:
        res = (await tab.frames.call_in_scope(DOCUMENT_JS, kind)).get("value")
    out: dict[str, Any] = {"tabId": tab.id}
    cur = tab.frames.current
    if cur is not None:
        out["frameId"] = cur.frame_id
    out.update(res or {})
    return out


class MarkupOps:
    browser: "Browser"

    async def html(self, req: "HtmlQuery") -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            out = await _inspect(tab, req.ref or req.selector, "html")
        if req.max_chars is not None and len(out.get("html", "")) > req.max_chars:
            out["html"], out["truncated"] = out["html"][:req.max_chars], True
        return out

    async def styles(self, req: "StylesQuery") -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            out = await _inspect(tab, req.ref or req.selector, "styles")
        styles = out.get("styles", {})
        out["styles"] = {req.prop: styles.get(req.prop)} if req.prop else dict(sorted(styles.items()))
        return out
