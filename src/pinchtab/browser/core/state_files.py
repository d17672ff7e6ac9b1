"""Files pinchtab writes for an agent (``output=file`` of a snapshot, screenshot, PDF, capture or
download): where they go (``<stateDir>/<folder>``), how they are named, and how they are written
(folders 0700, files 0600: a page's content is the user's)."""

from __future__ import annotations

import os
import time
import uuid
from pathlib import Path
from typing import Any

from pinchtab.config import Config
from pinchtab.errors import BadRequest


def state_folder(config: Config, folder: str) -> Path:
    return Path(config.server.state_dir).expanduser() / folder


def stamped_name(prefix: str, ext: str) -> str:
    """``<prefix>-<date>-<time>-<6 hex>.<ext>``: sorts by time, never the same name twice."""
    return f"{prefix}-{time.strftime('%Y%m%d-%H%M%S')}-{uuid.uuid4().hex[:6]}.{ext}"


def safe_file(base: Path, name: str) -> Path:
    """``name`` under ``base`` (no way out through .. or an absolute path)."""
    base = base.resolve()
    path = (base / name.lstrip("/")).resolve()
    if not path.is_relative_to(base) or path == base:
        raise BadRequest(f"invalid path {name!r}: it must name a file under {base}", "invalid_path")
    return path


def write_file(path: Path, data: bytes | str) -> Path:
    """Write ``data`` (text as UTF-8) to ``path``, replacing what was there."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data.encode("utf-8") if isinstance(data, str) else data)
    return path


def save_output(config: Config, folder: str, name: str | None, data: bytes, ext: str) -> dict[str, Any]:
    """``output=file`` of a screenshot or PDF: saved under <stateDir>/<folder> as ``name`` (or a
    stamped name); answers its path."""
    base = state_folder(config, folder)
    path = write_file(safe_file(base, name or stamped_name(folder[:-1], ext)), data)
    return {"status": "saved", "path": str(path), "size": len(data)}
