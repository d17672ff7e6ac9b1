"""Reading a tab: readable text, screenshots, PDFs, evaluate, cookies, waiting for content."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import time
from typing import TYPE_CHECKING, Any

from pinchtab.browser.page import targets
from pinchtab.browser.page.selectors import parse_selector
from pinchtab.cdp import CDPError
from pinchtab.errors import BadRequest, NotFound, PageScriptError, Timeout

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

POLL_INTERVAL = 0.1
EVALUATE_TIMEOUT_MS = 10000

# Main content first: <main>, role=main, the <article> with most text, else <body> minus chrome.
READABLE_JS = r"""(raw) => {
  const norm = (s) => s.replace(/[ \t\u00a0]+/g, ' ').replace(/\n\s*\n\s*\n+/g, '\n\n').trim();
  if (!document.body) return '';
  if (raw) return norm(document.body.innerText || '');
  const mains = [...document.querySelectorAll('main, [role=main]')].filter(e => e.innerText.trim());
  let root = mains[0];
  if (!root) {
    const arts = [...document.querySelectorAll('article')];
    arts.sort((a, b) => b.innerText.length - a.innerText.length);
    root = arts[0] && arts[0].innerText.trim().length > 200 ? arts[0] : null;
  }
  if (root) return norm(root.innerText);
  const skip = 'nav, header, footer, aside, [role=navigation], [role=banner], [role=contentinfo], [role=complementary], script, style, noscript, template';
  // Without touching the page: take innerText of every block that holds no page chrome.
  const parts = [];
  const visit = (el) => {
    for (const c of el.childNodes) {
      if (c.nodeType === 3) { const t = c.data.trim(); if (t) parts.push(t); continue; }
      if (c.nodeType !== 1 || c.matches(skip)) continue;
      if (c.querySelector(skip)) { visit(c); continue; }
      const t = c.innerText;
      if (t && t.trim()) parts.push(t.trim());
    }
  };
  visit(document.body);
  const out = norm(parts.join('\n'));
  return out || norm(document.body.innerText || '');
}"""

# Polls stay in the page: one call per check, no page state left behind.
PRESENT_JS = r"""(selector, text) => {
  if (selector) {
    try { if (!document.querySelector(selector)) return false; }
    catch (e) { return 'bad-selector'; }
  }
  if (text && !(document.body && document.body.innerText.includes(text))) return false;
  return true;
}"""


async def readable_text(tab: "Page", *, raw: bool = False, max_chars: int | None = None) -> dict[str, Any]:
    text = await tab.eval_in_world(READABLE_JS, raw)
    url, title = await tab.location()
    out: dict[str, Any] = {"url": url, "title": title, "text": text or ""}
    if max_chars is not None and len(out["text"]) > max_chars:
        out["text"] = out["text"][:max_chars]
        out["truncated"] = True
    return out


async def pdf(
    tab: "Page", *, landscape: bool = False, scale: float = 1.0, page_ranges: str | None = None, print_background: bool = True
) -> bytes:
    params: dict[str, Any] = {"landscape": landscape, "scale": scale, "printBackground": print_background}
    if page_ranges:
        params["pageRanges"] = page_ranges
    try:
        res = await tab.send("Page.printToPDF", params)
    except CDPError as exc:
        if "range" in exc.cdp_message.lower():
            raise BadRequest(f"invalid pageRanges {page_ranges!r}: {exc.cdp_message}", "bad_page_ranges") from exc
        raise
    return base64.b64decode(res["data"])


# Values JSON cannot carry as they are: their description ("div#main", "Symbol(x)", a date string).
_DESCRIBED = {"node", "date", "regexp", "error", "map", "set", "weakmap", "weakset", "promise", "proxy"}


async def evaluate(tab: "Page", expression: str) -> Any:
    """Evaluate in the page's own world (the agent asked for the page's globals)."""
    # By reference first, then by value: asking for the value at once fails the whole call
    # (after the expression ran) for window, a cyclic object or a symbol.
    started = time.monotonic()
    try:
        res = await tab.send(
            "Runtime.evaluate",
            # Chromium terminates a script that runs longer (while(true){} would hang the tab).
            {"expression": expression, "awaitPromise": True, "userGesture": True, "timeout": EVALUATE_TIMEOUT_MS},
        )
    except CDPError as exc:
        if time.monotonic() - started >= EVALUATE_TIMEOUT_MS / 1000 * 0.9:
            raise Timeout(f"the expression ran for {EVALUATE_TIMEOUT_MS // 1000} s and was stopped", "evaluate_timeout") from exc
        raise
    details = res.get("exceptionDetails")
    if details:
        exc = details.get("exception") or {}
        text = exc.get("description") or details.get("text") or "error"
        raise BadRequest(f"the expression threw: {text.splitlines()[0]}", "evaluate_error")
    result = res.get("result", {})
    object_id = result.get("objectId")
    try:
        return await _json_value(tab, result)
    finally:
        if object_id:
            asyncio.ensure_future(_release(tab, object_id))


async def _json_value(tab: "Page", obj: dict[str, Any]) -> Any:
    if "value" in obj:
        return obj["value"]
    if "unserializableValue" in obj:  # NaN, Infinity, -0, 1n
        return obj["unserializableValue"]
    if obj.get("type") == "undefined":
        return None
    object_id = obj.get("objectId")
    if object_id and obj.get("type") == "object" and obj.get("subtype") not in _DESCRIBED:
        try:
            res = await tab.send("Runtime.callFunctionOn", {
                "objectId": object_id, "functionDeclaration": "function () { return this; }", "returnByValue": True,
            })
            value = res.get("result", {})
            if "value" in value:
                return value["value"]
        except CDPError:  # "Object reference chain is too long", "couldn't be returned by value"
            pass
    return obj.get("description")


async def _release(tab: "Page", object_id: str) -> None:
    with contextlib.suppress(Exception):
        await tab.send("Runtime.releaseObject", {"objectId": object_id})


async def get_cookies(tab: "Page", url: str | None) -> list[dict[str, Any]]:
    if not url:
        url, _ = await tab.location()
    res = await tab.send("Network.getCookies", {"urls": [url]})
    keys = ("name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite")
    return [{k: c.get(k) for k in keys if k in c} for c in res.get("cookies", [])]


async def set_cookies(tab: "Page", url: str | None, cookies: list[dict[str, Any]]) -> int:
    if not url:
        url, _ = await tab.location()
    prepared = []
    for c in cookies:
        cookie = {k: v for k, v in c.items() if v is not None}
        if "domain" not in cookie and "url" not in cookie:
            if not url.startswith(("http://", "https://")):
                raise BadRequest("cookies need a url or domain (the tab shows no http(s) page)", "cookie_url_required")
            cookie["url"] = url
        prepared.append(cookie)
    try:
        await tab.send("Network.setCookies", {"cookies": prepared})
    except CDPError as exc:
        raise BadRequest(f"invalid cookie: {exc.cdp_message}", "bad_cookie") from exc
    return len(prepared)


async def wait_until(tab: "Page", *, selector: str | None, text: str | None, deadline: float) -> bool:
    """Poll until the selector and/or text are present (in the tab's frame scope); False at the
    deadline. A selector other than plain CSS (xpath:, text:, label:...: selectors.py) is looked
    up as actions do."""
    unified = selector is not None and parse_selector(selector).kind != "css"
    while True:
        try:
            found = (await tab.frames.call_in_scope(PRESENT_JS, None if unified else selector, text)).get("value")
            if found is True and unified:
                found = await _present(tab, selector)  # type: ignore[arg-type]
        except PageScriptError:
            found = False  # the document is being replaced; look again
        if found == "bad-selector":
            raise BadRequest(f"invalid CSS selector {selector!r}", "bad_selector")
        if found is True:
            return True
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        await asyncio.sleep(min(POLL_INTERVAL, remaining))


async def _present(tab: "Page", selector: str) -> bool:
    try:
        await targets.resolve(tab, selector)
    except NotFound:
        return False
    return True


async def wait(tab: "Page", *, selector: str | None, text: str | None, timeout_ms: int) -> dict[str, Any]:
    if not selector and not text:
        raise BadRequest("wait needs a selector or a text", "missing_condition")
    start = time.monotonic()
    present = await wait_until(tab, selector=selector, text=text, deadline=start + timeout_ms / 1000)
    return {"present": present, "elapsedMs": int((time.monotonic() - start) * 1000)}
