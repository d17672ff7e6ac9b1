"""One frame source per tab: ``Page.startScreencast`` runs while anyone consumes it (dashboard
viewers, a recording) and stops when the last one leaves.

Chromium sends a frame only when the page repaints and waits for each frame's ack before it sends
the next, so every frame is acked at once, whoever is slow. Each consumer has its own frame rate
and a queue of ``QUEUE_FRAMES``: a consumer that falls behind loses its oldest frames, never the
source's pace nor another consumer's. A still page paints nothing, so a new consumer gets the
source's latest frame first, and a source that has not drawn yet takes one screenshot.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import logging
import time
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pinchtab.cdp import CDPError

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

log = logging.getLogger("pinchtab.media")

QUEUE_FRAMES = 2
FIRST_FRAME_WAIT_S = 1.0  # then a screenshot stands in for the frame Chromium has not sent


@dataclass(frozen=True)
class Frame:
    data: bytes  # JPEG
    width: int  # CSS pixels of the page the frame shows (the viewport)
    height: int
    at: float  # time.monotonic() when it arrived


@dataclass(frozen=True)
class FrameSettings:
    quality: int = 40  # JPEG quality, 1-100
    max_width: int = 800
    max_height: int = 600
    every_nth_frame: int = 1


@dataclass(eq=False)
class Subscription:
    """One consumer's view of a tab's frames: at most ``fps`` a second, the newest ones kept."""

    source: "FrameSource"
    fps: float
    settings: FrameSettings
    queue: deque[Frame] = field(default_factory=lambda: deque(maxlen=QUEUE_FRAMES))
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    last_at: float = float("-inf")  # the first frame always goes
    closed: bool = False

    def offer(self, frame: Frame) -> None:
        if frame.at - self.last_at < 1.0 / self.fps:
            return
        self.last_at = frame.at
        self.queue.append(frame)
        self.wake.set()

    async def next(self, timeout: float) -> Frame | None:
        """The next frame, or None after ``timeout`` s without one (or when the tab is gone)."""
        if not self.queue and not self.closed:
            self.wake.clear()
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.wake.wait(), timeout)
        return self.queue.popleft() if self.queue else None

    @property
    def latest(self) -> Frame | None:
        return self.source.latest

    async def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.wake.set()
            await self.source.leave(self)


class FrameSource:
    """The screencast of one tab, shared by every consumer of it."""

    def __init__(self, tab: "Tab") -> None:
        self.tab = tab
        self.consumers: set[Subscription] = set()
        self.latest: Frame | None = None
        self.frames = 0  # received since the source started
        self._running: FrameSettings | None = None
        self._off: Callable[[], None] | None = None
        self._lock = asyncio.Lock()
        self._stand_in: asyncio.Task[None] | None = None

    async def join(self, fps: float, settings: FrameSettings) -> Subscription:
        sub = Subscription(self, fps, settings)
        async with self._lock:
            self.consumers.add(sub)
            await self._apply()
        if self.latest is not None:
            sub.queue.append(self.latest)
            sub.last_at = self.latest.at
        return sub

    async def leave(self, sub: Subscription) -> None:
        async with self._lock:
            self.consumers.discard(sub)
            await self._apply()

    def _wanted(self) -> FrameSettings | None:
        """The settings that serve every consumer: the best quality and size any of them asks for."""
        if not self.consumers:
            return None
        wants = [c.settings for c in self.consumers]
        return FrameSettings(max(w.quality for w in wants), max(w.max_width for w in wants),
                             max(w.max_height for w in wants), min(w.every_nth_frame for w in wants))

    async def _apply(self) -> None:
        wanted = self._wanted()
        if wanted == self._running:
            return
        if self.tab.closed:
            self._stop_listening()
            return
        if self._running is not None:
            with contextlib.suppress(CDPError, Exception):
                await self.tab.send("Page.stopScreencast")
        if wanted is None:
            self._stop_listening()
            self._running = None
            log.info("screencast of tab %s stopped after %d frames", self.tab.id, self.frames)
            return
        if self._off is None:
            self._off = self.tab.session.on("Page.screencastFrame", self._on_frame)
        await self.tab.send("Page.startScreencast", {
            "format": "jpeg", "quality": wanted.quality, "maxWidth": wanted.max_width,
            "maxHeight": wanted.max_height, "everyNthFrame": wanted.every_nth_frame})
        self._running = wanted
        if self.latest is None and (self._stand_in is None or self._stand_in.done()):
            self._stand_in = asyncio.ensure_future(self._screenshot_if_still(wanted))

    def _stop_listening(self) -> None:
        if self._off is not None:
            self._off()
            self._off = None
        if self._stand_in is not None:
            self._stand_in.cancel()
            self._stand_in = None

    def _on_frame(self, params: dict[str, Any]) -> None:
        session_id = params.get("sessionId")
        if session_id is not None:  # Chromium sends the next frame only after this ack
            asyncio.ensure_future(self._ack(session_id))
        meta = params.get("metadata") or {}
        try:
            data = base64.b64decode(params.get("data", ""))
        except ValueError:
            return
        self._publish(Frame(data, int(meta.get("deviceWidth") or 0), int(meta.get("deviceHeight") or 0),
                            time.monotonic()))

    def _publish(self, frame: Frame) -> None:
        self.latest = frame
        self.frames += 1
        for consumer in list(self.consumers):
            consumer.offer(frame)

    async def _ack(self, session_id: int) -> None:
        with contextlib.suppress(CDPError, Exception):
            await self.tab.send("Page.screencastFrameAck", {"sessionId": session_id})

    async def _screenshot_if_still(self, settings: FrameSettings) -> None:
        """A page that does not repaint sends no frame: show a screenshot of it until it does."""
        await asyncio.sleep(FIRST_FRAME_WAIT_S)
        if self.latest is not None or not self.consumers or self.tab.closed:
            return
        try:
            width, height = await self.tab.eval_in_world("() => [window.innerWidth, window.innerHeight]")
            scale = min(1.0, settings.max_width / max(width, 1), settings.max_height / max(height, 1))
            shot = await self.tab.send("Page.captureScreenshot", {
                "format": "jpeg", "quality": settings.quality,
                "clip": {"x": 0, "y": 0, "width": width, "height": height, "scale": scale}})
        except Exception as exc:  # a page mid-navigation: its first repaint will come as a frame
            log.debug("stand-in screenshot of tab %s failed: %s", self.tab.id, exc)
            return
        if self.latest is None:
            self._publish(Frame(base64.b64decode(shot["data"]), int(width), int(height), time.monotonic()))


_SOURCES: "weakref.WeakKeyDictionary[Tab, FrameSource]" = weakref.WeakKeyDictionary()


def frame_source(tab: "Tab") -> FrameSource:
    """The tab's one frame source (created on first use)."""
    source = _SOURCES.get(tab)
    if source is None:
        source = _SOURCES[tab] = FrameSource(tab)
    return source
