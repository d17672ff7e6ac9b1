"""Service methods of ``api/routes/media.py``: screencast subscriptions, the recording, annotation."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

from pinchtab.browser.media.encode import ffmpeg_path
from pinchtab.browser.media.frames import FrameSettings, Subscription, frame_source
from pinchtab.browser.media.recorder import Recorder
from pinchtab.errors import BadRequest, NotFound
from pinchtab.models import Blob
from pinchtab.models import media as md

MEDIA_TYPES = {"gif": "image/gif", "webm": "video/webm", "mp4": "video/mp4"}

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import Config


class MediaOps:
    browser: "Browser"
    config: "Config"
    _recorder: Recorder | None = None

    async def screencast(self, req: md.ScreencastQuery) -> Subscription:
        """A subscription to the tab's frames (the current tab when none is named); close it when done."""
        tab = await self.browser.tab(req.tab_id)
        settings = FrameSettings(req.quality, req.max_width, req.max_width * 3 // 4, req.every_nth_frame)
        return await frame_source(tab).join(req.fps, settings)

    async def screencast_tabs(self) -> list[dict[str, str]]:
        await self.browser.ensure_running()
        return [{"id": t["id"], "url": t["url"], "title": t["title"]} for t in self.browser.list_tabs()]

    @property
    def recorder(self) -> Recorder:
        if self._recorder is None:
            out_dir = os.path.join(self.config.server.state_dir, "recordings")
            self._recorder = Recorder(self.config.recording, out_dir)
        return self._recorder

    async def record_start(self, req: md.RecordStart) -> dict[str, Any]:
        if req.format != "gif" and ffmpeg_path() is None:
            raise BadRequest(f"recording to .{req.format} requires ffmpeg on the server's PATH; install it "
                             "(apt install ffmpeg) or use gif", "ffmpeg_required")
        tab = await self.browser.tab(req.tab_id)
        await self.recorder.start(tab, req.format, req.fps, req.quality, req.scale)
        return {"status": "recording", "format": req.format, "fps": req.fps, "quality": req.quality, "tabId": tab.id}

    async def record_stop(self, req: md.RecordStop) -> dict[str, Any]:
        return await self.recorder.stop(req.discard)

    async def record_status(self) -> dict[str, Any]:
        return self.recorder.status()

    async def record_file(self, req: md.RecordFile) -> Blob:
        status = self.recorder.status()
        if status["state"] != "finished" or status.get("error"):
            why = status.get("error") or f"the recording is {status['state']}"
            raise NotFound(f"no finished recording ({why}): POST /record/stop, then wait for GET /record/status "
                           "to say finished", "recording_not_finished")
        path = status["outputPath"]
        with open(path, "rb") as f:
            data = f.read()
        fmt = status["format"]
        return Blob(data, MEDIA_TYPES[fmt], {"format": fmt, "path": path, "bytes": len(data)})
