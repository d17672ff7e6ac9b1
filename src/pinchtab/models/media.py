"""What a person watches: a tab's live frames (/screencast), recordings (/record) and annotated
overlays (/annotate), with PinchTab's parameters."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pinchtab.models.base import MAX_SELECTOR_CHARS, ApiModel, TabScoped

RECORD_FORMATS = ("gif", "webm", "mp4")


class ScreencastQuery(TabScoped):
    """The websocket's query: the tab (the first one when omitted) and how its frames look."""

    quality: int = Field(30, ge=1, le=100, description="JPEG quality of the frames, 1-100.")
    max_width: int = Field(800, ge=16, le=4096, description="Frames are at most this wide (and 3/4 of it high).")
    fps: int = Field(1, ge=1, le=30, description="Frames a second at most, 1-30; a still page sends fewer.")
    every_nth_frame: int = Field(1, ge=1, le=60, description="Chromium sends every nth compositor frame.")


class RecordStart(TabScoped):
    format: Literal["gif", "webm", "mp4"] = Field(
        "gif", description="gif (encoded in process), webm or mp4 (need ffmpeg on the server's PATH).")
    fps: int = Field(5, ge=1, le=30, description="Frames a second, 1-30.")
    quality: int = Field(80, ge=1, le=100, description="JPEG quality of the captured frames, 1-100.")
    scale: float = Field(1.0, gt=0, le=1.0, description="Resolution multiplier (0.5: half each side).")


class RecordStop(ApiModel):
    discard: bool = Field(False, description="Drop the frames instead of encoding them.")


class AnnotateQuery(TabScoped):
    selector: str | None = Field(None, max_length=MAX_SELECTOR_CHARS,
                                 description="Annotate only the interactive elements inside this CSS selector.")
    clear: bool = Field(False, description="Remove the overlay instead of drawing it.")


class RecordFile(ApiModel):
    raw: bool = Field(False, description="Answer the file's bytes instead of JSON with base64.")
