"""BrowserService methods of the interaction routes: dialogs, boxes, uploads, downloads, clipboard."""

from __future__ import annotations

import base64
import mimetypes
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinchtab.models import Blob
from pinchtab.models import interaction as r
from pinchtab.browser.content import clipboard, fetch_url, uploads
from pinchtab.browser.input import resolve_target
from pinchtab.browser.content.downloads_policy import download_dir
from pinchtab.browser.core.state_files import safe_file, write_file
from pinchtab.errors import BadRequest, Conflict, NotFound, PinchtabError
from pinchtab.models import ActionRequest, TabScoped

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import Config


class InteractionOps:
    browser: "Browser"
    config: "Config"

    # -- dialogs -------------------------------------------------------------------------------

    async def dialog(self, req: r.DialogRequest) -> dict[str, Any]:
        # No tab lock: the request that opened the dialog may still hold it, blocked in the page.
        tab = await self.browser.tab(req.tab_id)
        return await tab.dialogs.answer(req.action, req.text)

    async def dialog_status(self, req: TabScoped) -> dict[str, Any]:
        tab = await self.browser.tab(req.tab_id)
        pending = tab.dialogs.pending
        return {"tabId": tab.id, "dialogPresent": pending is not None, "dialog": pending,
                "policy": tab.dialogs.policy}

    # -- files ---------------------------------------------------------------------------------

    async def upload(self, req: r.UploadRequest) -> dict[str, Any]:
        paths, staged = uploads.prepare(self.config, req.files, req.paths)
        try:
            async with self.browser.use_tab(req.tab_id) as tab:
                if req.ref:
                    target = await resolve_target(tab, ActionRequest(kind="hover", ref=req.ref))
                    assert target.backend_id is not None
                    node, label = target.backend_id, target.label
                else:
                    node, label = await uploads.find_input(tab, req.selector or uploads.DEFAULT_SELECTOR)
                out = await uploads.set_files(tab, node, label, paths)
        except BaseException:
            if staged is not None:
                import shutil

                shutil.rmtree(staged, ignore_errors=True)
            raise
        return {**out, "tabId": tab.id}

    async def download(self, req: r.DownloadQuery) -> dict[str, Any] | Blob:
        if req.output == "file" and not req.path:
            raise BadRequest("path is required with output=file", "missing_path")
        async with self.browser.use_tab(req.tab_id) as tab:
            version = await tab.send("Browser.getVersion")

            async def cookies_for(url: str) -> str:
                res = await tab.send("Network.getCookies", {"urls": [url]})
                return "; ".join(f"{c['name']}={c['value']}" for c in res.get("cookies", []))

            got = await fetch_url.fetch(req.url, self.config.security, cookies_for=cookies_for,
                                        user_agent=version.get("userAgent", ""))
        if req.output == "file":
            path = write_file(safe_file(download_dir(self.browser.config), req.path or ""), got.body)
            return {"status": "saved", "path": str(path), "size": len(got.body), "contentType": got.content_type}
        if req.raw:
            return Blob(got.body, got.content_type)
        return {"data": base64.b64encode(got.body).decode(), "contentType": got.content_type,
                "size": len(got.body), "url": got.url}

    async def downloads(self, req: r.DownloadsQuery) -> dict[str, Any] | Blob:
        if not req.id:
            return {"downloads": self.browser.page_downloads.list()}
        entry = self.browser.page_downloads.entries.get(req.id)
        if entry is None:
            raise NotFound(f"no download {req.id!r}; GET /downloads lists them", "download_not_found")
        if entry["state"] != "completed":
            raise Conflict(f"download {req.id} is {entry['state']}, not completed", "download_not_complete")
        path = Path(entry["path"])
        if not path.is_file():
            raise NotFound(f"the file of download {req.id} is gone ({path})", "download_not_found")
        if path.stat().st_size > self.config.security.download_max_bytes:
            raise PinchtabError(f"download {req.id} is larger than security.downloadMaxBytes", "download_too_large",
                                status=413)
        data = path.read_bytes()
        kind = mimetypes.guess_type(entry["filename"])[0] or "application/octet-stream"
        if req.raw:
            return Blob(data, kind)
        return {**entry, "contentType": kind, "data": base64.b64encode(data).decode()}

    # -- clipboard -----------------------------------------------------------------------------

    async def clipboard_read(self, req: r.ClipboardQuery) -> dict[str, Any]:
        return {"text": await clipboard.read(self.browser)}

    async def clipboard_paste(self, req: r.ClipboardQuery) -> dict[str, Any]:
        return await self.clipboard_read(req)

    async def clipboard_write(self, req: r.ClipboardWrite) -> dict[str, Any]:
        await clipboard.write(self.browser, req.text)
        return {"success": True}

    async def clipboard_copy(self, req: r.ClipboardWrite) -> dict[str, Any]:
        return await self.clipboard_write(req)
