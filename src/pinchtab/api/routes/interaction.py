"""Interaction beyond actions: dialogs, element boxes, uploads, downloads, the clipboard."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.gates import CLIPBOARD, DOWNLOAD, UPLOAD
from pinchtab.models.base import TabScoped
from pinchtab.models.interaction import (
    ClipboardQuery, ClipboardWrite, DialogRequest, DownloadQuery, DownloadsQuery, UploadRequest,
)


ROUTES: tuple[Route, ...] = (
    Route("dialog", ("POST",), "/dialog", DialogRequest, "Accept or dismiss the tab's open JavaScript dialog",
          mcp=("pinchtab_dialog",), cli=("dialog",),
          description="400 no_dialog when none is open. Open dialogs stay open only with browser.dialogs=manual."),
    Route("dialog_status", ("GET",), "/dialog", TabScoped, "The tab's open JavaScript dialog, if any"),
    Route("upload", ("POST",), "/upload", UploadRequest, "Set the files of a file input (needs security.allowUpload)",
          gate=UPLOAD, mcp=("pinchtab_upload",), cli=("upload",)),
    Route("download", ("GET",), "/download", DownloadQuery,
          "Fetch a URL with the browser's session (needs security.allowDownload)", gate=DOWNLOAD,
          mcp=("pinchtab_download",), cli=("download",)),
    Route("downloads", ("GET",), "/downloads", DownloadsQuery,
          "Files the pages downloaded (saved under <stateDir>/downloads); id= answers one file", tabbed=False,
          gate=DOWNLOAD),
    Route("clipboard_read", ("GET",), "/clipboard/read", ClipboardQuery,
          "The browser's clipboard text (needs security.allowClipboard)", tabbed=False, gate=CLIPBOARD,
          cli=("clipboard read",)),
    Route("clipboard_paste", ("GET",), "/clipboard/paste", ClipboardQuery, "Same as /clipboard/read", tabbed=False,
          gate=CLIPBOARD),
    Route("clipboard_write", ("POST",), "/clipboard/write", ClipboardWrite,
          "Put text on the browser's clipboard (needs security.allowClipboard)", tabbed=False, gate=CLIPBOARD,
          cli=("clipboard write",)),
    Route("clipboard_copy", ("POST",), "/clipboard/copy", ClipboardWrite, "Same as /clipboard/write", tabbed=False,
          gate=CLIPBOARD),
)
