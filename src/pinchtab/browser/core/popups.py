"""A click that opens a tab (``target=_blank``, ``window.open``): the action answers once the new
tab is listed with its URL, and says which tab it is (``newTab``).

Chromium announces the window on the opener's session (``Page.windowOpen``) while the action runs,
and its target on the browser session (``Target.targetCreated`` with ``openerId``); its URL
follows in ``Target.targetInfoChanged``, which ``Browser.targets`` keeps.

Whether the action meant to open it (issue 27, row 7): a page that calls ``window.open`` on
pointerdown, or from a timer, opens a tab during the agent's click that the agent never asked for,
and making it current would send the agent's next step (a password fill) there. So for the action
a hook in the page's main world notes the event each ``window.open`` call ran in, and which
links a trusted click activated: the tab was meant when ``window.open`` ran in the click's own
``click`` (PinchTab's "window.open button" switches) or when the click activated a link or form
whose target opens a new window. What it noted lives in a closure the page cannot reach, and a
page that bypasses it (a ``window.open`` saved before) only loses the switch. It reads the page's
own ``window.event``, though, so a page written against this hook (one that redefines it) could
pass a pointerdown open off as a click's: an agent that must not move passes ``tabId``.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from typing import TYPE_CHECKING, Any

from pinchtab.cdp import CDPError
from pinchtab.errors import PinchtabError

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.browser.core.tab import Tab

POLL = 0.02
HOOK_TIMEOUT_S = 1.0  # the hook's round trips; a page that blocks (a dialog) leaves the tab unswitched

# Events in which a window.open call is the clicked element's own activation.
ACTIVATION_EVENTS = frozenset({"click", "dblclick", "auxclick", "submit"})

HOOK_JS = r"""(() => {
  const w = window, orig = w.open, opens = [], links = [];
  let on = true;
  const NEW_WINDOW = (t) => !!t && !/^_(self|parent|top)$/i.test(t);
  const onClick = (e) => {
    if (!on || !e.isTrusted || !(e.target instanceof Element)) return;
    const a = e.target.closest('a[href], area[href]');
    if (a && NEW_WINDOW(a.getAttribute('target') || (document.querySelector('base[target]') || {}).target)) links.push(a.href);
    const b = e.target.closest('button, input[type=submit], input[type=image]');
    if (b && b.form && NEW_WINDOW(b.getAttribute('formtarget') || b.form.getAttribute('target'))) links.push(b.form.action);
  };
  function open() {
    const e = w.event;
    if (on) opens.push(e && e.isTrusted ? e.type : '');
    return orig.apply(this, arguments);
  }
  try { w.open = open; } catch (err) { /* a page that froze window.open keeps its own */ }
  w.addEventListener('click', onClick, true);
  return { done() {
    on = false;
    if (w.open === open) w.open = orig;
    w.removeEventListener('click', onClick, true);
    return { opens: opens, links: links };
  } };
})()"""


class PopupWatch:
    def __init__(self, browser: "Browser", tab: "Tab") -> None:
        self.browser, self.tab = browser, tab
        self.before = set(browser.targets)
        self.urls: list[str] = []
        self._off = tab.session.on("Page.windowOpen", lambda p: self.urls.append(p.get("url", "")))
        self._hook: str | None = None  # objectId of the hook's controller in the page's main world

    async def arm(self) -> None:
        """Put the hook in the page (not while a dialog blocks its scripts)."""
        if self.tab.dialogs.pending is not None:
            return
        with contextlib.suppress(CDPError, PinchtabError, asyncio.TimeoutError):
            res = await self.tab.send("Runtime.evaluate", {"expression": HOOK_JS, "returnByValue": False},
                                      timeout=HOOK_TIMEOUT_S)
            self._hook = (res.get("result") or {}).get("objectId")

    async def _noted(self) -> dict[str, list[str]]:
        """What the hook noted, and the hook taken out; nothing when the page went away meanwhile."""
        hook, self._hook = self._hook, None
        if hook is None or self.tab.dialogs.pending is not None:
            return {}
        with contextlib.suppress(CDPError, PinchtabError, asyncio.TimeoutError):
            res = await self.tab.send("Runtime.callFunctionOn", {
                "objectId": hook, "functionDeclaration": "function () { return this.done(); }",
                "returnByValue": True}, timeout=HOOK_TIMEOUT_S)
            value = (res.get("result") or {}).get("value")
            await self.tab.send("Runtime.releaseObject", {"objectId": hook}, timeout=HOOK_TIMEOUT_S)
            return value if isinstance(value, dict) else {}
        return {}

    def stop(self) -> None:
        """Stop listening, and take the hook out of the page unless ``opened`` will read it."""
        self._off()
        if self._hook is not None and not self.urls:
            task = asyncio.ensure_future(self._noted())  # no tab opened: nobody waits for this
            task.add_done_callback(lambda t: t.exception())

    async def opened(self, timeout_ms: int) -> dict[str, Any] | None:
        """The tab the action opened, once listed with its URL (``meant``: the action's own
        activation opened it); None when it opened none."""
        self.stop()
        if not self.urls:
            return None
        noted = await self._noted()
        meant = bool(noted.get("links")) or any(t in ACTIVATION_EVENTS for t in noted.get("opens", []))
        deadline = time.monotonic() + timeout_ms / 1000
        found: dict[str, Any] | None = None
        while True:
            for tid, info in self.browser.targets.items():
                if tid not in self.before and info.get("openerId") == self.tab.id:
                    found = {"tabId": tid, "url": info.get("url", ""), "meant": meant}
                    if found["url"] not in ("", "about:blank"):
                        return found
            if time.monotonic() > deadline:
                return found
            await asyncio.sleep(POLL)
