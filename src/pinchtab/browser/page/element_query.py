"""Questions about one element, or how many there are: count, value, attribute, box, visible,
enabled, checked. The element is a ref from a snapshot or a PinchTab selector: CSS (default),
``xpath:`` or a leading ``//``, ``text:``, wrapped in ``first:``, ``last:`` or ``nth:<n>:``.

A selector that matches nothing is a 404 (a count answers 0).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.errors import BadRequest, NotFound
from pinchtab.models.refs import as_ref

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

# What to ask of an element (``this``-free, so refs and selectors share it).
ASK_JS = r"""(el, op, arg) => {
  switch (op) {
    case 'value': return 'value' in el ? String(el.value) : (el.textContent || '').trim();
    case 'attr': return el.getAttribute(arg);
    case 'box': { const r = el.getBoundingClientRect(); return {x: r.x, y: r.y, width: r.width, height: r.height}; }
    case 'visible': {
      const s = getComputedStyle(el);
      if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false;
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0;
    }
    case 'enabled': return !(el.disabled || el.closest('fieldset:disabled') || el.getAttribute('aria-disabled') === 'true');
    case 'checked': return el.checked === undefined ? el.getAttribute('aria-checked') === 'true' : !!el.checked;
  }
  return null;
}"""

QUERY_JS = r"""(kind, value, which, index, op, arg) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  let items = [];
  if (kind === 'css') items = [...document.querySelectorAll(value)];
  else if (kind === 'xpath') {
    const r = document.evaluate(value, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    for (let i = 0; i < r.snapshotLength; i++) if (r.snapshotItem(i).nodeType === 1) items.push(r.snapshotItem(i));
  } else {
    const want = norm(value);
    const hits = [...document.querySelectorAll('body *')].filter(
      (el) => !['SCRIPT', 'STYLE', 'NOSCRIPT'].includes(el.tagName) && norm(el.textContent).includes(want));
    items = hits.filter((el) => !hits.some((o) => o !== el && el.contains(o)));
  }
  if (which) items = [which === 'last' ? items[items.length - 1] : items[which === 'first' ? 0 : index]].filter(Boolean);
  if (op === 'count') return {found: items.length};
  if (!items.length) return {found: 0};
  return {found: items.length, value: (ASK)(items[0], op, arg)};
}""".replace("(ASK)", "(" + ASK_JS + ")")


def parse(raw: str) -> tuple[str, str, str | None, int]:
    """(kind, value, which, index) of a selector that runs in the page."""
    s = raw.strip()
    which, index = None, 0
    for wrapper in ("first:", "last:"):
        if s.startswith(wrapper):
            which, s = wrapper[:-1], s[len(wrapper):].strip()
    if s.startswith("nth:"):
        n, _, rest = s[4:].partition(":")
        if not n.strip().isdigit() or not rest.strip():
            raise BadRequest(f"invalid selector {raw!r}: nth:<index from 0>:<selector>", "bad_selector")
        which, index, s = "nth", int(n), rest.strip()
    for prefix, kind in (("css:", "css"), ("xpath:", "xpath"), ("text:", "text")):
        if s.startswith(prefix):
            return kind, s[len(prefix):].strip(), which, index
    if s.startswith(("//", "(//")):
        return "xpath", s, which, index
    if not s:
        raise BadRequest("empty selector", "bad_selector")
    return "css", s, which, index


async def ask(tab: "Page", target: str, op: str, arg: str | None = None) -> Any:
    """``op`` of the element ``target`` names; for ``count``, how many it names."""
    name = as_ref(target)
    if name:
        if name not in tab.refs:
            if op == "count":
                return 0
            raise NotFound(f"ref {name} not found; take a snapshot to get current refs", "ref_not_found")
        node = tab.refs.get(name)
        if op == "count":
            return 1
        return await tab.call_on_node(node.backend_id, f"function (op, arg) {{ return ({ASK_JS})(this, op, arg); }}",
                                      op, arg)
    kind, value, which, index = parse(target)
    try:
        res = await tab.eval_in_world(QUERY_JS, kind, value, which, index, op, arg)
    except Exception as exc:
        if "SyntaxError" in str(exc) or "not a valid" in str(exc):
            raise BadRequest(f"invalid selector {target!r}", "bad_selector") from exc
        raise
    if op == "count":
        return res["found"]
    if not res["found"]:
        raise NotFound(f"no element matches selector {target!r}", "element_not_found")
    return res.get("value")
