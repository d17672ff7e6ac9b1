"""Recordings to files: a repeated frame (the same bytes) is one GIF frame shown longer."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from PIL import Image

from pinchtab.browser.media.encode import encode


def jpeg(colour: str) -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (40, 30), colour).save(out, format="JPEG")
    return out.getvalue()


def test_gif_merges_repeated_frames(tmp_path: Path) -> None:
    red, blue = jpeg("red"), jpeg("blue")
    out = tmp_path / "r.gif"
    encode([red, red, red, blue], "gif", 10, 0.5, str(out))
    with Image.open(out) as gif:
        assert gif.n_frames == 2 and gif.size == (20, 15)
        assert gif.info["duration"] == 300
        gif.seek(1)
        assert gif.info["duration"] == 100
    assert not list(tmp_path.glob("*.tmp")), "written whole or not at all"


def test_without_frames_nothing_is_written(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        encode([], "gif", 5, 1.0, str(tmp_path / "none.gif"))
    assert not list(tmp_path.iterdir())


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not on PATH")
def test_mp4_through_ffmpeg(tmp_path: Path) -> None:
    out = tmp_path / "r.mp4"
    encode([jpeg("red"), jpeg("blue")] * 3, "mp4", 5, 1.0, str(out))
    assert out.read_bytes()[4:8] == b"ftyp"
