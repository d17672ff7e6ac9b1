"""Files the pages download (a link with ``download``, a Content-Disposition attachment).

With ``security.allowDownload`` they are saved under ``<stateDir>/downloads`` (never the user's
Downloads folder), named by Chromium's download id, and listed by ``GET /downloads``; without it
Chromium is told to refuse them. The list keeps the last ``MAX_ENTRIES``. A download that grows
past ``security.downloadMaxBytes`` is cancelled and its partial file removed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Any

from pinchtab.browser.content.downloads_policy import download_dir
from pinchtab.cdp import Session
from pinchtab.config import Config

log = logging.getLogger("pinchtab.downloads")
MAX_ENTRIES = 200


class PageDownloads:
    def __init__(self) -> None:
        self.entries: "OrderedDict[str, dict[str, Any]]" = OrderedDict()

    async def setup(self, root: Session, config: Config) -> None:
        """Called on the browser's root session once it is connected."""
        if not config.security.allow_download:
            with contextlib.suppress(Exception):
                await root.send("Browser.setDownloadBehavior", {"behavior": "deny"})
            return
        folder = download_dir(config)
        folder.mkdir(parents=True, exist_ok=True)
        self.folder = folder
        self.root = root
        self.max_bytes = config.security.download_max_bytes
        root.on("Browser.downloadWillBegin", self._begin)
        root.on("Browser.downloadProgress", self._progress)
        try:
            await root.send("Browser.setDownloadBehavior",
                            {"behavior": "allowAndName", "downloadPath": str(folder), "eventsEnabled": True})
        except Exception as exc:  # an attached browser may refuse: pages then download as it decides
            log.warning("cannot direct page downloads to %s: %s", folder, exc)

    def _begin(self, p: dict[str, Any]) -> None:
        guid = p.get("guid", "")
        self.entries[guid] = {"id": guid, "url": p.get("url", ""), "filename": p.get("suggestedFilename", ""),
                              "tabId": p.get("frameId", ""), "state": "inProgress", "size": 0,
                              "path": str(self.folder / guid)}
        while len(self.entries) > MAX_ENTRIES:
            self.entries.popitem(last=False)

    def _progress(self, p: dict[str, Any]) -> None:
        entry = self.entries.get(p.get("guid", ""))
        if entry is None or entry["state"] == "canceled":
            return
        entry["size"] = int(p.get("receivedBytes") or 0)
        entry["state"] = p.get("state", entry["state"])
        if entry["state"] in ("inProgress", "completed") and \
                max(entry["size"], int(p.get("totalBytes") or 0)) > self.max_bytes:
            # A page's download obeys the same cap as /download (a 60 MB one was saved whole).
            entry["state"] = "canceled"
            entry["error"] = f"larger than security.downloadMaxBytes ({self.max_bytes} bytes): cancelled"
            asyncio.ensure_future(self._cancel(entry["id"], Path(entry["path"])))

    async def _cancel(self, guid: str, path: Path) -> None:
        with contextlib.suppress(Exception):
            await self.root.send("Browser.cancelDownload", {"guid": guid})
        with contextlib.suppress(OSError):
            path.unlink(missing_ok=True)

    def list(self) -> list[dict[str, Any]]:
        return list(self.entries.values())
