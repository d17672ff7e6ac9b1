"""The browser's own clipboard, read and written from a scratch page nobody sees.

Chromium (headless too) keeps one clipboard for all its tabs: what a page copies (a "copy" button,
Control+C) can be read here, and what is written here is what Control+V pastes into a page. The
scratch page lives in a browser context of its own, hidden from ``GET /tabs`` and disposed after
each use, so no tab's DOM, focus or history is touched. Writing is a copy command under a user
gesture; reading is a real Control+V into a textarea.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Any

from pinchtab.cdp import Session
from pinchtab.errors import BrowserError

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser

MAX_BYTES = 64 * 1024

_PAGE = "document.body.innerHTML = '<textarea id=c></textarea>'; document.getElementById('c').focus();"
# The copy command's own event carries the text, so an empty string is written too.
_WRITE = """((t) => {
  document.addEventListener('copy', (e) => { e.clipboardData.setData('text/plain', t); e.preventDefault(); }, { once: true });
  return document.execCommand('copy');
})(%s)"""
_locks: dict[int, asyncio.Lock] = {}


@contextlib.asynccontextmanager
async def _scratch(browser: "Browser") -> AsyncIterator[Session]:
    await browser.ensure_running()
    assert browser.root is not None and browser.connection is not None
    root = browser.root
    ctx = (await root.send("Target.createBrowserContext", {"disposeOnDetach": True}))["browserContextId"]
    browser.hidden_contexts.add(ctx)
    try:
        target = await root.send("Target.createTarget", {"url": "about:blank", "browserContextId": ctx})
        attached = await root.send("Target.attachToTarget", {"targetId": target["targetId"], "flatten": True})
        session = Session(browser.connection, attached["sessionId"])
        await session.send("Emulation.setFocusEmulationEnabled", {"enabled": True})
        await _evaluate(session, _PAGE)
        yield session
    finally:
        with contextlib.suppress(Exception):
            await root.send("Target.disposeBrowserContext", {"browserContextId": ctx})
        browser.hidden_contexts.discard(ctx)


async def _evaluate(session: Session, expression: str, **extra: Any) -> Any:
    res = await session.send("Runtime.evaluate", {"expression": expression, "returnByValue": True, **extra})
    if "exceptionDetails" in res:
        raise BrowserError(f"clipboard: {res['exceptionDetails'].get('text', 'script error')}", "clipboard_failed")
    return res["result"].get("value")


def _lock(browser: "Browser") -> asyncio.Lock:
    return _locks.setdefault(id(browser), asyncio.Lock())


async def write(browser: "Browser", text: str) -> None:
    async with _lock(browser), _scratch(browser) as session:
        for _ in range(5):
            if not await _evaluate(session, _WRITE % json.dumps(text), userGesture=True):
                raise BrowserError("the browser refused to write its clipboard", "clipboard_failed")
            # The renderer hands the text to the browser process asynchronously: read it back in the
            # same page (which orders after the write) before the scratch page goes away.
            if await _paste(session) == text.replace("\r\n", "\n").replace("\r", "\n"):  # a textarea's newlines
                return
            await asyncio.sleep(0.05)
        raise BrowserError("the clipboard did not take the text; retry", "clipboard_failed")


async def _paste(session: Session) -> str:
    """Control+V into the scratch page's (emptied) textarea; answers what was pasted."""
    await _evaluate(session, "document.getElementById('c').value = '', document.getElementById('c').focus()")
    for kind in ("rawKeyDown", "keyUp"):
        await session.send("Input.dispatchKeyEvent", {"type": kind, "key": "v", "code": "KeyV",
                                                      "windowsVirtualKeyCode": 86, "modifiers": 2})
    value = await _evaluate(session, "document.getElementById('c').value")
    return value if isinstance(value, str) else ""


async def read(browser: "Browser") -> str:
    async with _lock(browser), _scratch(browser) as session:
        return await _paste(session)
