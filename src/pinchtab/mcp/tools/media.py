"""Recording a tab (PinchTab's pinchtab_record_*): the file's extension picks the format, and
pinchtab_record_stop waits for the encoding and writes the file where it was asked to."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any

from pinchtab import models
from pinchtab.client import AsyncClient
from pinchtab.mcp.tools.common import TAB, ToolInputError, as_int
from pinchtab.mcp.tools.registry import ToolOutput, define, field, own

tool = define("media")

ENCODE_TIMEOUT_S = 300.0
FILE = "Absolute path of the recording file: .gif, .webm or .mp4 (webm and mp4 need ffmpeg on the server)."


def checked_path(file: str) -> tuple[str, str]:
    """(path, format) of a new file in an existing directory; as PinchTab's: absolute, no symlink,
    not overwriting a file."""
    path = os.path.normpath(file)
    fmt = os.path.splitext(path)[1].lower().lstrip(".")
    if not os.path.isabs(path):
        raise ToolInputError(f"file must be an absolute path, got {file!r}")
    if fmt not in models.RECORD_FORMATS:
        raise ToolInputError(f"unsupported format {os.path.splitext(path)[1] or '(none)'!r}: use .gif, .webm or .mp4")
    folder = os.path.dirname(path)
    if not os.path.isdir(folder) or os.path.islink(folder):
        raise ToolInputError(f"output directory {folder!r} is not a directory")
    if os.path.lexists(path):
        raise ToolInputError(f"file already exists at {path!r}: remove it first or choose another path")
    return path, fmt


async def _start(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    _, fmt = checked_path(a["file"])
    return await c.record_start(tab_id=a["tabId"], format=fmt, fps=as_int(a["fps"]), quality=as_int(a["quality"]),
                                scale=a["scale"])  # type: ignore[no-any-return]


async def _stop(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    try:
        path, _ = checked_path(a["file"])
    except ToolInputError as exc:
        await c.record_stop(discard=True)
        raise ToolInputError(f"{exc}; the recording was discarded") from None
    stopped = await c.record_stop()
    deadline = time.monotonic() + ENCODE_TIMEOUT_S
    while (status := await c.record_status())["state"] == "encoding" and time.monotonic() < deadline:
        await asyncio.sleep(0.2)
    if status["state"] != "finished" or status.get("error"):
        raise ToolInputError(f"encoding did not finish: {status.get('error') or status['state']}")
    data = await c.record_file(raw=True)
    with open(path, "xb") as f:
        f.write(data)
    return f"Recording saved to {path} ({stopped['frames']} frames, {len(data)} bytes)"


async def _status(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return await c.record_status()  # type: ignore[no-any-return]


TOOLS = (
    tool(
        name="pinchtab_record_start",
        description="Start recording the tab; the format is the file's extension (.gif, .webm, .mp4). Requires "
        "security.allowScreencast. GIF works without ffmpeg.",
        args=(own("file", str, FILE, required=True), field(models.RecordStart, "fps"),
              field(models.RecordStart, "quality"), field(models.RecordStart, "scale"), TAB),
        run=_start,
    ),
    tool(
        name="pinchtab_record_stop",
        description="Stop recording, wait for the encoding and save the recording to file.",
        args=(own("file", str, FILE, required=True),),
        run=_stop,
    ),
    tool(
        name="pinchtab_record_status",
        description="The recording's state (idle, recording, encoding, finished), format, fps, duration and frames.",
        args=(),
        run=_status,
        read_only=True,
    ),
)
