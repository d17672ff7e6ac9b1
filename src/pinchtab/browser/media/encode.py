"""Frames to a file: GIF in process (Pillow), WebM and MP4 through ``ffmpeg`` when it is on PATH.

A recording samples its tab's latest frame at a fixed rate, so a still page gives the same frame
many times over: the same bytes object, which the GIF encoder decodes once and shows longer.
"""

from __future__ import annotations

import io
import os
import shutil
import subprocess
from collections.abc import Sequence

FFMPEG_FORMATS = {
    # VP8 at a constant quality; H.264 in yuv420p so every player shows it (even sizes needed).
    "webm": ["-c:v", "libvpx", "-b:v", "0", "-crf", "10", "-deadline", "realtime"],
    "mp4": ["-c:v", "libx264", "-preset", "veryfast", "-pix_fmt", "yuv420p", "-movflags", "+faststart",
            "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2"],
}
FFMPEG_TIMEOUT_S = 300


def ffmpeg_path() -> str | None:
    return shutil.which("ffmpeg")


def encode(frames: Sequence[bytes], fmt: str, fps: int, scale: float, out_path: str) -> None:
    """Write ``frames`` (JPEG bytes, one per 1/fps s) to ``out_path`` (written whole or not at all)."""
    tmp = out_path + ".encoding.tmp"
    try:
        if fmt == "gif":
            _gif(frames, fps, scale, tmp)
        else:
            _ffmpeg(frames, fmt, fps, scale, tmp)
        os.replace(tmp, out_path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)


def _gif(frames: Sequence[bytes], fps: int, scale: float, path: str) -> None:
    from PIL import Image

    step_ms = 1000 / fps
    images: list[Image.Image] = []
    durations: list[float] = []
    previous: bytes | None = None
    for data in frames:
        if data is previous:  # a repeat of the frame before: show that one longer
            durations[-1] += step_ms
            continue
        previous = data
        image = Image.open(io.BytesIO(data)).convert("RGB")
        if scale < 1:
            image = image.resize((max(1, round(image.width * scale)), max(1, round(image.height * scale))))
        images.append(image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.FLOYDSTEINBERG))
        durations.append(step_ms)
    if not images:
        raise ValueError("no frames to encode")
    # GIF delays are in hundredths of a second; Pillow rounds the milliseconds given.
    images[0].save(path, format="GIF", save_all=True, append_images=images[1:], loop=0,
                   duration=[round(d) for d in durations], optimize=False, disposal=1)


def _ffmpeg(frames: Sequence[bytes], fmt: str, fps: int, scale: float, path: str) -> None:
    binary = ffmpeg_path()
    if binary is None:
        raise RuntimeError(f"recording to .{fmt} needs ffmpeg on PATH; install it or use gif")
    args = list(FFMPEG_FORMATS[fmt])
    if scale < 1:
        size = f"scale=trunc(iw*{scale:g}/2)*2:trunc(ih*{scale:g}/2)*2"
        if "-vf" in args:
            args[args.index("-vf") + 1] = size
        else:
            args += ["-vf", size]
    command = [binary, "-hide_banner", "-loglevel", "error", "-y", "-f", "image2pipe", "-framerate", str(fps),
               "-c:v", "mjpeg", "-i", "-", *args, "-f", fmt, path]
    done = subprocess.run(command, input=b"".join(frames), capture_output=True, timeout=FFMPEG_TIMEOUT_S, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"ffmpeg failed ({done.returncode}): {done.stderr.decode(errors='replace')[-400:]}")
