"""Downloads are refused unless ``security.allowDownload``; then they land in ``<stateDir>/downloads``
and nowhere else (never ``$HOME/Downloads``), whether a navigate, a click or a page's script
started them (page_downloads.py sets Chromium's download behaviour and lists them). A navigate
that turns into a download answers at once with what happened."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pinchtab.browser.core.state_files import state_folder
from pinchtab.models.gates import DOWNLOAD
from pinchtab.config import Config
from pinchtab.errors import Forbidden


def download_dir(config: Config) -> Path:
    return state_folder(config, "downloads")


def navigate_answer(out: dict[str, Any], config: Config) -> dict[str, Any]:
    """The answer of a navigate whose URL turned out to be a download (``out["download"]`` set)."""
    download = out.get("download")
    if not download:
        return out
    if not config.security.allow_download:
        exc = Forbidden(f"{download['url']} is a download, and downloads are refused: {DOWNLOAD.message()}; "
                        "the tab stayed where it was", DOWNLOAD.code)
        exc.extra.update(tabId=out.get("tabId"), url=out.get("url"))
        raise exc
    download["directory"] = str(download_dir(config))
    download["status"] = "started"
    return out
