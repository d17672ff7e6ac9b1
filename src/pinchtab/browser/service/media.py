"""Service methods of ``api/routes/media.py``: screencast subscriptions, the recording, annotation."""

from __future__ import annotations

import base64
import os
from typing import TYPE_CHECKING, Any

from pinchtab.browser.content import capture
from pinchtab.browser.core.cpu import off_loop
from pinchtab.browser.core.state_files import save_output
from pinchtab.browser.media import annotate as ann
from pinchtab.browser.media.encode import ffmpeg_path
from pinchtab.browser.media.frames import FrameSettings, Subscription, frame_source
from pinchtab.browser.media.recorder import Recorder
from pinchtab.errors import BadRequest, NotFound
from pinchtab.models import Blob, ScreenshotQuery
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

    async def annotate(self, req: md.AnnotateQuery) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            if req.clear:
                await ann.remove_overlay(tab)
                return {"cleared": True, "tabId": tab.id}
            items = await ann.annotations(tab, req.selector)
            await ann.inject_overlay(tab, items)  # none: the stale overlay goes, no new one
            return {"annotated": len(items), "annotations": items, "tabId": tab.id}

    async def annotated_screenshot(self, req: ScreenshotQuery) -> Blob | dict[str, Any]:
        """The screenshot with each interactive element's ref box drawn in, and the boxes in the
        image's CSS pixels (PinchTab's envelope: format, base64, annotations)."""
        async with self.browser.use_tab(req.tab_id) as tab:
            items = await ann.annotations(tab, req.selector)
            view = await capture.view(tab)
            image, space, clip = await capture.take(tab, fmt=req.format, quality=req.quality, scale=req.scale,
                                                    selector=req.selector, beyond_viewport=req.full_page)
        dx = dy = 0.0
        width, height = view["w"], view["h"]
        if space == "clip" and clip is not None:
            dx, dy, width, height = view["scrollX"] - clip["x"], view["scrollY"] - clip["y"], clip["width"], clip["height"]
        elif space == "document":
            dx, dy, width, height = view["scrollX"], view["scrollY"], float("inf"), float("inf")
        placed = ann.project(items, dx, dy, width, height)
        data = await off_loop(ann.draw, image, req.format, placed, view["dpr"] * req.scale, what="annotated screenshot")
        if req.output == "file":
            saved = save_output(self.config, "screenshots", req.path, data, "jpg" if req.format == "jpeg" else "png")
            return {**saved, "annotations": placed}
        if req.raw:
            return Blob(data, f"image/{req.format}", {"format": req.format})
        return {"format": req.format, "base64": base64.b64encode(data).decode(), "annotations": placed}
