"""Waiting for a condition on a tab: a selector (present, visible or hidden), text there or gone,
the URL matching a glob, a load state (readyState or network idle), a JS expression turning
truthy, or a fixed time. One poll loop; the answer says whether it happened and how long it took.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pinchtab.browser.content.reading import POLL_INTERVAL, wait_until
from pinchtab.browser.content.page_metrics import network_idle
from pinchtab.models.gates import EVALUATE
from pinchtab.errors import BadRequest, Forbidden, PageScriptError
from pinchtab.globs import Glob
from pinchtab.models import MAX_WAIT_MS, WaitRequest

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

# PinchTab's names and its one legacy alias; its pre-rename "load" and "domcontentloaded" answer
# 400, as there, so that a client learns the names that mean the same on both.
LOAD_STATES = {"ready-state": "ready-state", "content-loaded": "content-loaded", "network-idle": "network-idle",
               "networkidle": "network-idle"}

# visible: in the DOM with a box and not hidden by CSS; hidden: absent or not visible.
SELECTOR_STATE_JS = r"""(selector, wantHidden) => {
  let el;
  try { el = document.querySelector(selector); } catch (e) { return 'bad-selector'; }
  const visible = !!el && (() => {
    const s = getComputedStyle(el);
    if (s.visibility === 'hidden' || s.display === 'none' || Number(s.opacity) === 0) return false;
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0;
  })();
  return wantHidden ? !visible : visible;
}"""

TEXT_GONE_JS = "(text) => !document.body || !document.body.innerText.includes(text)"
READY_JS = "() => document.readyState"


async def _poll(check: Callable[[], Awaitable[bool]], deadline: float) -> bool:
    while True:
        try:
            if await check():
                return True
        except PageScriptError:
            pass  # the document is being replaced; look again
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return False
        await asyncio.sleep(min(POLL_INTERVAL, remaining))


async def _truthy_in_page(tab: "Page", expression: str) -> bool:
    res = await tab.send("Runtime.evaluate", {
        "expression": f"!!(function(){{try{{return ({expression})}}catch(e){{return false}}}})()",
        "returnByValue": True, "timeout": 2000,
    })
    if res.get("exceptionDetails"):
        raise BadRequest(f"fn is not a valid JavaScript expression: {res['exceptionDetails'].get('text', '')}",
                         "bad_expression")
    return res.get("result", {}).get("value") is True


def _condition(tab: "Page", *, selector: str | None, state: str | None, text: str | None, not_text: str | None,
               url: str | None, load: str | None, fn: str | None, idle_for_ms: int) -> tuple[str, str, Callable[[], Awaitable[bool]]]:
    """(mode, match label, check) for the one condition asked for."""
    if selector and state in ("visible", "hidden"):
        async def check_state() -> bool:
            found = await tab.eval_in_world(SELECTOR_STATE_JS, selector, state == "hidden")
            if found == "bad-selector":
                raise BadRequest(f"invalid CSS selector {selector!r}", "bad_selector")
            return found is True
        return "selector", selector, check_state
    if not_text is not None:
        return "notText", "!" + not_text, lambda: _eval_true(tab, TEXT_GONE_JS, not_text)
    if url is not None:
        # ** any characters, * any but /, ? one; found anywhere in the URL
        glob = Glob(url, segment_star=True)

        async def check_url() -> bool:
            href, _ = await tab.location()
            return glob.search(href)
        return "url", url, check_url
    if load is not None:
        canonical = LOAD_STATES.get(load.lower())
        if canonical is None:
            raise BadRequest(f"unsupported load state {load!r}: ready-state, content-loaded or network-idle",
                             "bad_load_state")
        if canonical == "network-idle":
            async def check_idle() -> bool:
                return network_idle(tab, idle_for_ms / 1000)
            return "load", canonical, check_idle
        wanted = ("complete",) if canonical == "ready-state" else ("interactive", "complete")

        async def check_ready() -> bool:
            return await tab.eval_in_world(READY_JS) in wanted
        return "load", canonical, check_ready
    if fn is not None:
        return "fn", "fn", lambda: _truthy_in_page(tab, fn)
    raise AssertionError("no condition")


async def _eval_true(tab: "Page", function: str, *args: Any) -> bool:
    return await tab.eval_in_world(function, *args) is True


async def before_tab(req: WaitRequest, *, allow_evaluate: bool) -> dict[str, Any] | None:
    """Checks that need no tab, and the fixed wait (``ms``), which needs none either."""
    if req.ms is not None:
        ms = min(req.ms, MAX_WAIT_MS)
        await asyncio.sleep(ms / 1000)
        return {"waited": True, "elapsed": ms, "elapsedMs": ms, "match": f"{ms}ms"}
    if not any(v is not None for v in (req.selector, req.text, req.not_text, req.url, req.load, req.fn)):
        raise BadRequest("wait needs one of selector, text, notText, url, load, fn or ms", "missing_condition")
    if req.fn is not None and not allow_evaluate:
        raise Forbidden(EVALUATE.message(), EVALUATE.code)
    return None


async def wait(tab: "Page", *, selector: str | None = None, state: str | None = None, text: str | None = None,
               not_text: str | None = None, url: str | None = None, load: str | None = None, fn: str | None = None,
               idle_for_ms: int = 500, timeout_ms: int) -> dict[str, Any]:
    start = time.monotonic()
    deadline = start + timeout_ms / 1000
    if (selector or text) and not (selector and state in ("visible", "hidden")):
        mode, label = ("selector", selector) if selector else ("text", text)
        ok = await wait_until(tab, selector=selector, text=text, deadline=deadline)
    else:
        mode, label, check = _condition(tab, selector=selector, state=state, text=text, not_text=not_text, url=url,
                                        load=load, fn=fn, idle_for_ms=idle_for_ms)
        ok = await _poll(check, deadline)
    elapsed = int((time.monotonic() - start) * 1000)
    out: dict[str, Any] = {"waited": ok, "present": ok, "elapsed": elapsed, "elapsedMs": elapsed}
    if ok:
        out["match"] = label
    else:
        out["error"] = f"timeout after {elapsed}ms waiting for {mode}"
    return out
