"""Interaction beyond actions: dialogs, element boxes, uploads, downloads, the clipboard."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from pinchtab.models.base import ApiModel, Leased, Printable, TabScoped


MAX_CLIPBOARD_BYTES = 64 * 1024


class DialogRequest(TabScoped):
    action: Literal["accept", "dismiss"] = Field(..., description="accept or dismiss the open dialog.")
    text: str | None = Field(None, max_length=8192, description="Prompt text (with accept on a prompt).")


class UploadRequest(TabScoped, Leased):
    selector: str | None = Field(None, description="The file input's CSS selector (default input[type=file]; "
                                                   "open shadow roots are searched).")
    ref: str | None = Field(None, description="The file input's ref, instead of selector.")
    files: list[str] = Field(default_factory=list, description="File contents: data:<type>;base64,... or base64.")
    paths: list[str] = Field(default_factory=list, description="Files on the bridge's machine, inside <stateDir>/uploads "
                                                                "(relative paths) or security.uploadAllowedDirs.")


class DownloadQuery(TabScoped, Leased):
    url: Printable = Field(..., description="http(s) URL to fetch with the browser's cookies and user agent.")
    raw: bool = Field(False, description="Answer the bytes instead of JSON with base64 data.")
    output: Literal["file"] | None = Field(None, description="file: save under <stateDir>/downloads and answer its path.")
    path: Printable | None = Field(None, description="File name under <stateDir>/downloads (with output=file).")


class DownloadsQuery(ApiModel):
    id: str | None = Field(None, description="One download's id: answers its file (base64 data, or the bytes with raw=true).")
    raw: bool = Field(False, description="With id: answer the file's bytes.")


class _NoTab(ApiModel):
    tab_id: str | None = Field(None, description="Not accepted: the clipboard is the browser's, shared by its tabs.")

    @field_validator("tab_id")
    @classmethod
    def _no_tab(cls, value: str | None) -> None:
        if value:
            raise ValueError("tabId is not supported: the clipboard is shared by all tabs of the browser")
        return None


class ClipboardQuery(_NoTab):
    pass


class ClipboardWrite(_NoTab):
    text: str = Field(..., description="Text to put on the clipboard (at most 64 KiB).")

    @field_validator("text")
    @classmethod
    def _size(cls, value: str) -> str:
        if len(value.encode()) > MAX_CLIPBOARD_BYTES:
            raise ValueError(f"text too large (max {MAX_CLIPBOARD_BYTES} bytes)")
        return value
