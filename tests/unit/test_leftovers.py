"""Temp leftovers of killed runs are swept at the next launch (issue 16: org.chromium.Chromium.*
dirs and pinchtab-chrome-*.log files piled up in TMPDIR after kills)."""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

from pinchtab.cdp.launcher import sweep_leftovers


def test_sweep_removes_only_what_no_live_process_owns(tmp_path: Path) -> None:
    dead = subprocess.Popen(["true"])
    dead.wait()
    gone = tmp_path / "pinchtab-chrome-run-dead"
    (gone / "tmp" / "org.chromium.Chromium.x").mkdir(parents=True)
    (gone / "pid").write_text(str(dead.pid))
    live = tmp_path / "pinchtab-chrome-run-live"
    live.mkdir()
    (live / "pid").write_text(str(os.getpid()))
    fresh = tmp_path / "pinchtab-chrome-run-starting"  # no pid yet: being set up
    fresh.mkdir()
    # Its pid file created but not written yet (an older launcher's): being set up too. Taken for
    # a dead Chromium's, its run dir was removed under a starting Chromium, which then exited
    # (code 21: no TMPDIR for its profile lock's socket).
    writing = tmp_path / "pinchtab-chrome-run-writing"
    writing.mkdir()
    (writing / "pid").write_text("")
    legacy_profile = tmp_path / "pinchtab-chrome-abc123"
    legacy_profile.mkdir()
    old_log = tmp_path / "pinchtab-chrome-q1.log"
    old_log.write_text("x")
    os.utime(old_log, (time.time() - 7200, time.time() - 7200))
    new_log = tmp_path / "pinchtab-chrome-q2.log"
    new_log.write_text("x")
    other = tmp_path / "org.chromium.Chromium.foreign"  # may belong to anyone's Chromium: left alone
    other.mkdir()

    removed = sweep_leftovers(str(tmp_path))
    assert sorted(Path(p).name for p in removed) == sorted([gone.name, legacy_profile.name, old_log.name])
    assert live.is_dir() and fresh.is_dir() and writing.is_dir() and new_log.is_file() and other.is_dir()
    assert not gone.exists() and not legacy_profile.exists() and not old_log.exists()
