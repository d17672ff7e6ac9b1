"""PinchTab's ``close_idle`` tab lifecycle (``instanceDefaults.tabPolicy``): a tab an agent has read
or acted on (/text, /snapshot, /action) closes ``closeDelaySec`` later unless it is used that way
again (the delay starts over) or navigated (the close is called off until the next read)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from pinchtab.config import TabPolicy
from pinchtab.errors import PinchtabError

log = logging.getLogger("pinchtab.browser")


class IdleCloser:
    def __init__(self, policy: TabPolicy, close: Callable[[str], Awaitable[object]],
                 busy: Callable[[str], bool]) -> None:
        self.enabled = policy.lifecycle == "close_idle"
        self.delay = policy.close_delay_sec
        self._close = close
        self._busy = busy  # a request holds the tab: closing waits for it to finish
        self._timers: dict[str, asyncio.TimerHandle] = {}
        self._closing: set[asyncio.Task[None]] = set()  # referenced until done (the loop holds tasks weakly)

    def arm(self, tab_id: str) -> None:
        """Close ``tab_id`` after the delay (starting over when it was already counting)."""
        if not self.enabled:
            return
        self.cancel(tab_id)
        loop = asyncio.get_running_loop()
        self._timers[tab_id] = loop.call_later(self.delay, self._start_close, tab_id)

    def _start_close(self, tab_id: str) -> None:
        task = asyncio.get_running_loop().create_task(self._fire(tab_id))
        self._closing.add(task)
        task.add_done_callback(self._closing.discard)

    def cancel(self, tab_id: str) -> None:
        timer = self._timers.pop(tab_id, None)
        if timer is not None:
            timer.cancel()

    def cancel_all(self) -> None:
        for tab_id in list(self._timers):
            self.cancel(tab_id)

    async def _fire(self, tab_id: str) -> None:
        self._timers.pop(tab_id, None)
        if self._busy(tab_id):
            self.arm(tab_id)
            return
        log.info("tab %s idle for %.1f s after use: closing it (instanceDefaults.tabPolicy close_idle)",
                 tab_id, self.delay)
        with contextlib.suppress(PinchtabError):  # already gone
            await self._close(tab_id)
