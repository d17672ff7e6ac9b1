"""Size-bounded log files (``server.logMaxBytes``, ``server.logBackups``).

A log beyond the size moves to ``<name>.1`` (``.1`` to ``.2``, ...; the oldest beyond
``backups`` is dropped) and writing goes on in a fresh file. A log written through this
process's stdout and stderr (a detached server's) is watched by a thread that swaps the fresh
file in under both descriptors, so the process needs no logging set-up of its own: whatever
writes to fd 1 or 2 (uvicorn, tracebacks, Chromium's messages) lands in the current file.
"""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

CHECK_INTERVAL = 10.0  # seconds between size checks: a log grows by lines, not megabytes a second


def _numbered(path: Path, n: int) -> Path:
    return path.with_name(f"{path.name}.{n}")


def rotate(path: Path, max_bytes: int, backups: int) -> bool:
    """Move ``path`` aside when it holds ``max_bytes`` or more (0: never); True when it did."""
    if max_bytes <= 0:
        return False
    try:
        if path.stat().st_size < max_bytes:
            return False
        for n in range(backups - 1, 0, -1):
            if _numbered(path, n).exists():
                os.replace(_numbered(path, n), _numbered(path, n + 1))
        if backups > 0:
            os.replace(path, _numbered(path, 1))
        else:
            path.unlink()
    except OSError:
        return False  # a log that cannot be moved is no reason to stop the process
    return True


def open_append(path: Path) -> int:
    return os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)


def redirect_std_streams(path: Path) -> None:
    """Send this process's stdout and stderr to ``path`` (appended)."""
    fd = open_append(path)
    os.dup2(fd, 1)
    os.dup2(fd, 2)
    os.close(fd)


def writes_to(path: Path) -> bool:
    """Does this process's stdout go to the file ``path``?"""
    try:
        out, file = os.fstat(1), os.stat(path)
    except OSError:
        return False
    return (out.st_dev, out.st_ino) == (file.st_dev, file.st_ino)


def keep_bounded(path: Path, max_bytes: int, backups: int, interval: float = CHECK_INTERVAL) -> threading.Thread | None:
    """Rotate ``path``, this process's stdout and stderr, whenever it outgrows ``max_bytes``."""
    if max_bytes <= 0:
        return None

    def watch() -> None:
        while True:
            time.sleep(interval)
            if writes_to(path) and rotate(path, max_bytes, backups):
                redirect_std_streams(path)

    thread = threading.Thread(target=watch, name="pinchtab-log-rotation", daemon=True)
    thread.start()
    return thread
