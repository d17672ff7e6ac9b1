"""PinchTab's unified selectors: one string says how to find an element.

    e5 / ref:e5                 a ref
    #id, .cls, a[href] / css:   CSS (the default), open shadow roots included
    //div, (//a)[2] / xpath:    XPath
    text:Submit                 the smallest element whose text contains it (case and spaces aside)
    find:login button           natural language, as POST /find
    role:button Save, label:Email, placeholder:, alt:, title:, testid:
                                structured locators, matched exactly against the snapshot
    first:<s>, last:<s>, nth:<n>:<s>
                                one of several matches, in document order (nth counts from 0)

CSS, XPath and text run in the page (in the tab's frame scope, frames.py): ``pick``; the rest
against the tab's current snapshot (``targets.py`` resolves any kind to a node).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from pinchtab.errors import BadRequest, NotFound, PageScriptError
from pinchtab.find.locators import Locator, parse_locator
from pinchtab.models.refs import is_ref

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

@dataclass(frozen=True)
class Selector:
    kind: str                  # ref, css, xpath, text, find, locator
    value: str
    index: int = 0             # which match (browser-side kinds)
    from_end: bool = False
    locator: Locator | None = None


def parse_selector(raw: str) -> Selector:
    s = raw.strip()
    if not s:
        raise BadRequest("empty selector", "bad_selector")
    locator = parse_locator(s, with_text=False)
    if locator is not None:
        return Selector("locator", s, locator=locator)
    for prefix, kind in (("css:", "css"), ("xpath:", "xpath"), ("text:", "text"), ("find:", "find"),
                         ("semantic:", "find"), ("ref:", "ref")):
        if s.startswith(prefix):
            return Selector(kind, s[len(prefix):].strip())
    for wrapper in ("first:", "last:", "nth:"):
        if s.startswith(wrapper):
            rest = s[len(wrapper):]
            index = 0
            if wrapper == "nth:":
                n, _, rest = rest.partition(":")
                if not n.strip().isdigit() or not rest.strip():
                    raise BadRequest(f"invalid selector {raw!r}: nth needs nth:<index from 0>:<selector>", "bad_selector")
                index = int(n)
            inner = parse_selector(rest)
            if inner.kind not in ("css", "xpath", "text"):
                raise BadRequest(f"invalid selector {raw!r}: {wrapper[:-1]} wraps CSS, XPath, text or a locator",
                                 "bad_selector")
            return Selector(inner.kind, inner.value, index, wrapper == "last:")
    if s.startswith(("//", "(//")):
        return Selector("xpath", s)
    if is_ref(s):
        return Selector("ref", s)
    return Selector("css", s)


# Runs in an isolated world of the scoped frame. Answers the element (serialised "deep" for its
# backend node id) and keeps it in the world for the snapshot walker (opts.picked).
RESOLVE_JS = r"""(kind, value, index, fromEnd) => {
  const norm = (s) => (s || '').replace(/\s+/g, ' ').trim().toLowerCase();
  const deep = (css) => {
    const out = [];
    const visit = (root) => {
      out.push(...root.querySelectorAll(css));
      for (const el of root.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
    };
    visit(document);
    return out;
  };
  let items = [];
  if (kind === 'css') items = deep(value);
  else if (kind === 'xpath') {
    const r = document.evaluate(value, document, null, XPathResult.ORDERED_NODE_SNAPSHOT_TYPE, null);
    for (let i = 0; i < r.snapshotLength; i++) items.push(r.snapshotItem(i));
  } else if (kind === 'text') {
    // the smallest elements holding the text: a button, not the form around it
    const want = norm(value);
    const hits = deep('body *').filter((el) => !['SCRIPT', 'STYLE'].includes(el.tagName) && norm(el.textContent).includes(want));
    items = hits.filter((el) => !hits.some((o) => o !== el && el.contains(o)));
  }
  const el = items[fromEnd ? items.length - 1 : index] || null;
  globalThis.__pinchtabPicked = el;
  return el;
}"""

_DEEP = {"serialization": "deep", "maxDepth": 0}


async def pick(tab: "Page", sel: Selector, raw: str) -> int:
    """The backend node id of the element a CSS, XPath or text selector picks in the tab's frame
    scope; the element is also kept in that world for the snapshot walker (``picked``)."""
    try:
        res = await tab.frames.call_in_scope(RESOLVE_JS, sel.kind, sel.value, sel.index, sel.from_end,
                                            serialization=_DEEP)
    except PageScriptError as exc:
        raise BadRequest(f"invalid selector {raw!r}: {exc.message}", "bad_selector") from exc
    value = res.get("deepSerializedValue", {})
    if value.get("type") != "node":
        raise NotFound(f"no element matches selector {raw!r}", "selector_not_found")
    return value["value"]["backendNodeId"]
