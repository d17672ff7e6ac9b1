"""--against REV for the bench scripts: a temporary git worktree of another revision with the
calling script (and this module) copied in (so both sides measure the same way), removed afterwards."""

from __future__ import annotations

import subprocess
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def worktree_at(rev: str, script: str) -> Iterator[Path]:
    """A checkout of ``rev`` holding this checkout's ``script`` (a path under bench/, e.g. __file__)."""
    with tempfile.TemporaryDirectory() as tmp:
        wt = Path(tmp) / "rev"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(wt), rev], check=True,
                       capture_output=True)
        try:
            # This module too: an older revision has no bench/_revision.py for the script to import.
            for path in (Path(script), Path(__file__)):
                (wt / "bench" / path.name).write_text(path.read_text())
            yield wt
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)], check=False)
