"""Files the pages download (a link with ``download``, a Content-Disposition attachment).

With ``security.allowDownload`` they are saved under ``<stateDir>/downloads`` (never the user's
Downloads folder), named by Chromium's download id, and listed by ``GET /downloads``; without it
Chromium is told to refuse them. The list keeps the last ``MAX_ENTRIES``.
"""

from __future__ import annotations

import contextlib
import logging
from collections import OrderedDict
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
        if entry is None:
            return
        entry["size"] = int(p.get("receivedBytes") or 0)
        entry["state"] = p.get("state", entry["state"])

    def list(self) -> list[dict[str, Any]]:
        return list(self.entries.values())
