"""Recording commands (``record start|stop|status``), PinchTab's: the file's extension picks the
format, and ``record stop`` saves the finished recording where ``record start`` was told to."""

from __future__ import annotations

import hashlib
import tempfile
import time
from pathlib import Path
from typing import Any

import click

from pinchtab import models
from pinchtab.commands.table import INSPECT, Ctx, command, group, option

ENCODE_TIMEOUT_S = 300.0

group("record", INSPECT, """Record a tab to a GIF (or WebM/MP4 with ffmpeg on the server).

    \b
    Example:
      pinchtab record start session.gif --fps 5
      pinchtab record stop
    """)


def format_of(path: str) -> str:
    fmt = Path(path).suffix.lower().lstrip(".")
    if fmt not in models.RECORD_FORMATS:
        raise click.BadParameter(f"unsupported format {Path(path).suffix or '(none)'!r}: use .gif, .webm or .mp4")
    return fmt


def _target_file(ctx: Ctx) -> Path:
    """Where ``record start`` leaves the file name for ``record stop``: one per server URL."""
    key = hashlib.sha1(ctx.url.encode()).hexdigest()[:12]
    return Path(tempfile.gettempdir()) / f"pinchtab-record-{key}"


@command("record start", INSPECT)
@click.argument("file")
@option(models.RecordStart, "fps")
@option(models.RecordStart, "quality")
@option(models.RecordStart, "scale")
def record_start(ctx: Ctx, tab_id: str | None, file: str, fps: int | None, quality: int | None,
                 scale: float | None) -> None:
    """Start recording the tab to FILE (.gif, .webm or .mp4).

    \b
    Example:
      pinchtab record start demo.gif --fps 5 --scale 0.5
    """
    fmt = format_of(file)
    answer = ctx.client.record_start(tab_id=tab_id, format=fmt, fps=fps, quality=quality, scale=scale)
    _target_file(ctx).write_text(str(Path(file).resolve()))
    ctx.out(answer, lambda v: f"recording {v['tabId']} -> {file} ({fmt}, {v['fps']} fps)")


@command("record stop", INSPECT, tab=False)
@click.argument("file", required=False)
@option(models.RecordStop, "discard")
def record_stop(ctx: Ctx, file: str | None, discard: bool) -> None:
    """Stop recording and save it to FILE (default: the file given to record start).

    \b
    Example:
      pinchtab record stop
    """
    remembered = _target_file(ctx)
    target = file or (remembered.read_text() if remembered.exists() else None)
    answer = ctx.client.record_stop(discard=discard or None)
    remembered.unlink(missing_ok=True)
    if answer["status"] != "encoding":
        ctx.out(answer, lambda v: f"discarded {v['frames']} frames")
        return
    status = wait_encoded(ctx.client)
    out = Path(target or f"recording-{time.strftime('%Y%m%d-%H%M%S')}.{answer['format']}")
    out.write_bytes(ctx.client.record_file(raw=True))
    ctx.out({**status, "file": str(out)}, lambda v: f"saved {v['frames']} frames to {out}")


def wait_encoded(client: Any) -> dict[str, Any]:
    deadline = time.monotonic() + ENCODE_TIMEOUT_S
    while True:
        status: dict[str, Any] = client.record_status()
        if status["state"] == "finished":
            if status.get("error"):
                raise click.ClickException(f"encoding failed: {status['error']}")
            return status
        if status["state"] != "encoding" or time.monotonic() > deadline:
            raise click.ClickException(f"the recording did not finish encoding (state {status['state']})")
        time.sleep(0.2)


@command("record status", INSPECT, tab=False)
def record_status(ctx: Ctx) -> None:
    """Show the recording's state.

    \b
    Example:
      pinchtab record status
    """
    ctx.out(ctx.client.record_status(), lambda v: (
        f"{v['state']}: {v.get('format', '')} {v['frames']} frames"
        + (f", {v['durationSeconds']:.1f} s" if "durationSeconds" in v else "")
        + (f" -> {v['outputPath']}" if v.get("outputPath") else "")))
