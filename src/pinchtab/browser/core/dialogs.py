"""JavaScript dialogs of one tab (alert, confirm, prompt, beforeunload): who answers them.

An open dialog blocks its page: every script, and any input event whose handler opened it, waits
until it is answered. The tab's policy (``browser.dialogs``) answers dialogs nobody asked about:
``manual`` (the default, as in PinchTab) leaves the dialog open; the tab then refuses work with
409 ``dialog_blocking`` (naming the dialog) until ``POST /dialog`` answers it; ``accept`` or
``dismiss`` answer it at once. A beforeunload dialog is accepted under every policy but dismiss:
it only opens for a leave the agent asked for. An action may carry its own answer
(``dialogAction``/``dialogText``), used once for a dialog that this action opens.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

from pinchtab.errors import BadRequest, Conflict

log = logging.getLogger("pinchtab.dialogs")

MAX_TEXT = 8 * 1024  # a page's dialog message is the page's to choose: keep answers small
T = TypeVar("T")


class DialogBlocking(Conflict):
    default_code = "dialog_blocking"


def _info(params: dict[str, Any]) -> dict[str, Any]:
    out = {"type": params.get("type", ""), "message": (params.get("message") or "")[:MAX_TEXT]}
    if params.get("type") == "prompt":
        out["defaultPrompt"] = (params.get("defaultPrompt") or "")[:MAX_TEXT]
    if params.get("url"):
        out["url"] = params["url"]
    return out


def blocking_error(dialog: dict[str, Any]) -> DialogBlocking:
    message = f' "{dialog["message"][:200]}"' if dialog.get("message") else ""
    exc = DialogBlocking(
        f"a {dialog.get('type') or 'JavaScript'} dialog{message} is open and blocks the page: answer it with "
        'POST /dialog {"action":"accept"|"dismiss","text"?} (MCP: pinchtab_dialog), or pass dialogAction with the '
        'action that opens it'
    )
    exc.extra["dialog"] = dialog
    return exc


class DialogOwner(Protocol):
    """What a ``DialogTracker`` uses of its tab (``core.tab.Tab``)."""

    id: str

    async def send(self, method: str, params: dict[str, Any] | None = None, *,
                   timeout: float | None = None) -> dict[str, Any]: ...


class DialogTracker:
    def __init__(self, tab: DialogOwner, policy: str = "manual") -> None:
        self.tab = tab
        self.policy = policy
        self.pending: dict[str, Any] | None = None
        self.handled = 0  # dialogs answered automatically, so an action can report the one it opened
        self.last_handled: dict[str, Any] | None = None
        self._armed: tuple[bool, str | None] | None = None
        # A navigation is leaving the page: its dialogs are dismissed until the new document commits
        # (a page that opens the next dialog as each closes could otherwise never be left).
        self.leaving = False
        self.opened = 0  # dialogs the page opened, answered or not
        self._watchers: list[asyncio.Future[dict[str, Any]]] = []  # for dialogs left open
        self._openings: list[asyncio.Future[None]] = []  # for any dialog

    # -- events ------------------------------------------------------------------------------

    def on_opening(self, params: dict[str, Any]) -> None:
        info = _info(params)
        self.opened += 1
        for opening in self._openings:
            if not opening.done():
                opening.set_result(None)
        self._openings.clear()
        if self.leaving:  # a beforeunload as below; any other dialog of the page being left is dismissed
            accept, text = info["type"] == "beforeunload" and self.policy != "dismiss", None
        elif self._armed is not None:
            accept, text = self._armed
            self._armed = None
        elif self.policy in ("accept", "dismiss"):
            accept, text = self.policy == "accept", None
        elif info["type"] == "beforeunload":
            # Only a leave the agent asked for (navigate, reload, back) opens one: leaving is the answer.
            accept, text = True, None
        else:
            self.pending = info
            for fut in self._watchers:
                if not fut.done():
                    fut.set_result(info)
            return
        if text is None and accept:
            text = params.get("defaultPrompt") or ""
        self.handled += 1
        self.last_handled = {**info, "action": "accept" if accept else "dismiss"}
        asyncio.ensure_future(self._send(accept, text, info))

    def on_closed(self, params: dict[str, Any]) -> None:
        self.pending = None

    async def _send(self, accept: bool, text: str | None, info: dict[str, Any]) -> None:
        params: dict[str, Any] = {"accept": accept}
        if text is not None:
            params["promptText"] = text
        try:
            await self.tab.send("Page.handleJavaScriptDialog", params)
        except Exception as exc:  # the tab went away, or the dialog closed first
            log.debug("answering a %s dialog failed: %s", info.get("type"), exc)

    # -- what routes and actions use ---------------------------------------------------------

    def leave(self) -> None:
        """A navigation away starts: dismiss the open dialog, and each one the page opens until its
        new document commits (``left``)."""
        self.leaving = True
        dialog, self.pending = self.pending, None
        if dialog is not None:
            asyncio.ensure_future(self._send(False, None, dialog))

    def left(self) -> None:
        self.leaving = False

    def next_opening(self) -> asyncio.Future[None]:
        """Resolves when the page opens its next dialog, whoever answers it."""
        opening: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._openings = [f for f in self._openings if not f.done()] + [opening]  # cancelled ones go
        return opening

    def check(self) -> None:
        """Raise 409 dialog_blocking while a dialog waits for an answer."""
        if self.pending is not None:
            raise blocking_error(self.pending)

    async def answer(self, action: str, text: str | None) -> dict[str, Any]:
        """Answer the open dialog (``POST /dialog``)."""
        dialog = self.pending
        if dialog is None:
            raise BadRequest(f"no dialog is open on tab {self.tab.id}", "no_dialog")
        accept = action == "accept"
        params: dict[str, Any] = {"accept": accept}
        if accept and dialog.get("type") == "prompt":
            params["promptText"] = dialog.get("defaultPrompt", "") if text is None else text
        from pinchtab.cdp import CDPError

        try:
            await self.tab.send("Page.handleJavaScriptDialog", params)
        except CDPError as exc:
            if "no dialog" not in exc.cdp_message.lower():
                raise
        self.pending = None
        return {"tabId": self.tab.id, "type": dialog["type"], "message": dialog["message"], "handled": True,
                "action": action}

    async def unless_blocked(self, work: Awaitable[T]) -> T:
        """``work``, unless the page leaves a dialog open meanwhile: then 409 dialog_blocking at once
        (a navigation whose new page opens an alert as it loads), not when ``work`` times out."""
        self.check()
        opened: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._watchers.append(opened)
        task = asyncio.ensure_future(work)
        try:
            await asyncio.wait({task, opened}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            self._watchers.remove(opened)
            if not task.done():
                task.cancel()
                task.add_done_callback(_consume)
        if task.done() and not task.cancelled():
            return task.result()
        raise blocking_error(opened.result())

    async def guard(self, action: Callable[[], Awaitable[T]], answer: str | None = None,
                    text: str | None = None) -> tuple[T, dict[str, Any] | None]:
        """Run ``action``; a dialog it opens is answered with ``answer`` (else the policy). When
        the dialog stays open (manual policy), raise dialog_blocking at once instead of waiting
        for the blocked page. Answers the action's value and the dialog it answered, if any."""
        self._armed = (answer == "accept", text) if answer else None
        before = self.handled
        opened: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._watchers.append(opened)
        task = asyncio.ensure_future(action())
        try:
            try:
                await asyncio.wait({task, opened}, return_when=asyncio.FIRST_COMPLETED)
            except asyncio.CancelledError:
                task.cancel()  # the caller went away: so does the action
                raise
            if not task.done():
                # The page is stuck in the dialog: the action finishes once someone answers it.
                task.add_done_callback(_consume)
                raise blocking_error(opened.result())
            value = task.result()
        finally:
            self._watchers.remove(opened)
            self._armed = None
        return value, (self.last_handled if self.handled != before else None)


def _consume(task: "asyncio.Future[Any]") -> None:
    with contextlib.suppress(BaseException):
        task.exception()
