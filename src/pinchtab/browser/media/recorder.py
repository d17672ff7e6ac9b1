"""One recording per bridge (PinchTab's /record): the tab's frames sampled at a fixed rate from its
shared frame source, kept in memory within the configured bounds, encoded in the background when
stopped into ``<stateDir>/recordings``.

States, as PinchTab names them: idle, recording, limit_reached (a bound stopped the capture; the
frames wait for stop), stopping, encoding, finished, aborted (the tab went away).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from dataclasses import dataclass, field
from datetime import datetime
from typing import TYPE_CHECKING, Any

from pinchtab.browser.media.encode import encode
from pinchtab.browser.media.frames import FrameSettings, Subscription, frame_source
from pinchtab.config import RecordingConfig
from pinchtab.errors import BadRequest, Conflict

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

log = logging.getLogger("pinchtab.media")

FRAME_WAIT_S = 1.0


@dataclass
class Recording:
    tab: "Tab"
    fmt: str
    fps: int
    quality: int
    scale: float
    started: float = field(default_factory=time.monotonic)
    frames: list[bytes] = field(default_factory=list)
    distinct_bytes: int = 0
    encoded: int = 0  # frames handed to the encoder (the list is freed once it is done)
    sub: Subscription | None = None
    task: asyncio.Task[None] | None = None


class Recorder:
    def __init__(self, limits: RecordingConfig, out_dir: str) -> None:
        self.limits = limits
        self.out_dir = out_dir
        self.state = "idle"
        self.stop_reason = ""
        self.current: Recording | None = None
        self.output_path = ""
        self.error = ""
        self._encoding: asyncio.Task[None] | None = None

    async def start(self, tab: "Tab", fmt: str, fps: int, quality: int, scale: float) -> None:
        if self.state in ("finished", "aborted"):
            self._reset()
        if self.state != "idle":
            raise Conflict("a recording is already in progress: POST /record/stop ends it (one per bridge)",
                           "recording_error")
        rec = Recording(tab, fmt, fps, quality, scale)
        width, height = await tab.eval_in_world("() => [window.innerWidth, window.innerHeight]")
        # Frames at the viewport's CSS size times scale; the recording keeps what it is sent.
        settings = FrameSettings(quality, max(1, round(width * scale)), max(1, round(height * scale)))
        rec.sub = await frame_source(tab).join(fps, settings)
        self.current, self.state, self.stop_reason = rec, "recording", ""
        rec.task = asyncio.ensure_future(self._capture(rec))

    async def _capture(self, rec: Recording) -> None:
        """Every 1/fps s, the tab's newest frame (a still page repeats its last one)."""
        if rec.sub is None:
            return
        step = 1.0 / rec.fps
        first = await rec.sub.next(FRAME_WAIT_S * 3)
        previous = first.data if first else None
        next_at = time.monotonic()
        while True:
            if rec.tab.closed:
                await self._abort(rec, "tab_closed")
                return
            reason = self._limit(rec)
            if reason:
                self.state, self.stop_reason = "limit_reached", reason
                log.info("recording stopped: %s", reason)
                await rec.sub.close()
                return
            latest = rec.sub.latest
            rec.sub.queue.clear()  # the sampling below reads the newest frame; older ones are not kept
            if latest is not None:
                if latest.data is not previous:
                    rec.distinct_bytes += len(latest.data)
                    previous = latest.data
                rec.frames.append(latest.data)
            next_at += step
            await asyncio.sleep(max(0.0, next_at - time.monotonic()))

    def _limit(self, rec: Recording) -> str:
        if time.monotonic() - rec.started >= self.limits.max_duration_sec:
            return "max_duration"
        if len(rec.frames) >= self.limits.max_frames:
            return "max_frames"
        if rec.distinct_bytes >= self.limits.max_bytes:
            return "max_bytes"
        return ""

    async def _abort(self, rec: Recording, reason: str) -> None:
        if rec.sub is not None:
            await rec.sub.close()
        self.state, self.stop_reason = "aborted", reason
        rec.frames.clear()

    async def stop(self, discard: bool) -> dict[str, Any]:
        if self.state == "encoding":
            raise BadRequest(f"already encoding to {self.output_path}: GET /record/status shows its progress",
                             "recording_error")
        rec = self.current
        if rec is None or self.state not in ("recording", "limit_reached"):
            raise BadRequest("no active recording: POST /record/start begins one", "recording_error")
        self.state = "stopping"
        if rec.task is not None and not rec.task.done():
            rec.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await rec.task
        if rec.sub is not None:
            await rec.sub.close()
        frames = len(rec.frames)
        if discard:
            self._reset()
            return {"status": "discarded", "format": rec.fmt, "frames": frames}
        if not frames:
            self._reset()
            raise BadRequest("no frames captured", "recording_error")
        rec.encoded = frames
        os.makedirs(self.out_dir, mode=0o700, exist_ok=True)
        stamp = datetime.now().strftime("%Y%m%d_%H%M%S_%f")
        self.output_path = os.path.join(self.out_dir, f"rec_{stamp}.{rec.fmt}")
        self.state = "encoding"
        self._encoding = asyncio.ensure_future(self._encode(rec, self.output_path))
        return {"status": "encoding", "path": self.output_path, "format": rec.fmt, "frames": frames,
                "hint": f"Encoding {frames} frames to {self.output_path}. GET /record/status says when it is "
                        "finished; the file is at the path then."}

    async def _encode(self, rec: Recording, path: str) -> None:
        try:
            await asyncio.to_thread(encode, rec.frames, rec.fmt, rec.fps, rec.scale, path)
        except Exception as exc:  # shown by /record/status
            log.warning("recording encode to %s failed: %s", path, exc)
            self.error = str(exc)
        else:
            log.info("recording saved to %s (%d bytes)", path, os.path.getsize(path))
        rec.frames.clear()
        self.state = "finished"

    def _reset(self) -> None:
        self.current, self.state, self.stop_reason = None, "idle", ""
        self.output_path, self.error = "", ""

    def status(self) -> dict[str, Any]:
        rec = self.current
        if self.state == "idle" or rec is None:
            return {"active": False, "state": "idle", "frames": 0}
        if self.state == "finished":
            out: dict[str, Any] = {"active": False, "state": "finished", "format": rec.fmt,
                                   "frames": rec.encoded, "outputPath": self.output_path}
            if self.error:
                out["error"] = self.error
            return out
        out = {"active": self.state != "aborted", "state": self.state, "format": rec.fmt,
               "durationSeconds": round(time.monotonic() - rec.started, 3), "frames": len(rec.frames),
               "tabId": rec.tab.id, "fps": rec.fps}
        if self.stop_reason:
            out["stopReason"] = self.stop_reason
        if self.output_path:
            out["outputPath"] = self.output_path
        return out
