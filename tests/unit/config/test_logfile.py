"""Size-bounded logs (pinchtab.logfile): rotation by size, and a process's own stdout/stderr."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from pinchtab.logfile import rotate


def test_rotate_moves_a_full_log_aside_and_keeps_that_many_backups(tmp_path: Path) -> None:
    log = tmp_path / "server.log"
    log.write_text("small")
    assert rotate(log, 100, 2) is False
    assert log.read_text() == "small"
    for generation in ("first", "second", "third"):
        log.write_text(generation * 40)
        assert rotate(log, 100, 2) is True
        assert not log.exists()
    assert (tmp_path / "server.log.1").read_text().startswith("third")
    assert (tmp_path / "server.log.2").read_text().startswith("second")
    assert not (tmp_path / "server.log.3").exists()


def test_rotate_zero_means_never_and_no_backups_means_drop(tmp_path: Path) -> None:
    log = tmp_path / "b.log"
    log.write_text("x" * 500)
    assert rotate(log, 0, 3) is False
    assert rotate(log, 100, 0) is True
    assert not log.exists() and not (tmp_path / "b.log.1").exists()
    assert rotate(tmp_path / "missing.log", 100, 3) is False


def test_a_process_writing_its_log_through_stdout_keeps_it_bounded(tmp_path: Path) -> None:
    log = tmp_path / "server-1.log"
    script = textwrap.dedent(f"""
        import os, sys, time
        from pathlib import Path
        from pinchtab import logfile
        path = Path({str(log)!r})
        logfile.redirect_std_streams(path)
        logfile.keep_bounded(path, 2000, 2, interval=0.02)
        for i in range(60):
            print("line", i, "x" * 200, flush=True)
            print("err", i, file=sys.stderr, flush=True)
            time.sleep(0.01)
        # Let a rotation the last lines call for happen first (the watcher has swapped in a fresh
        # file under the limit): then the closing lines, far under it, must land in the fresh file
        # whatever the machine's load. Polled, where a fixed 0.5 s wait was.
        deadline = time.monotonic() + 20
        while not (logfile.writes_to(path) and path.stat().st_size < 2000) and time.monotonic() < deadline:
            time.sleep(0.01)
        print("last line out", flush=True)
        print("last line err", file=sys.stderr, flush=True)
        time.sleep(0.1)  # five check intervals with the closing lines written: they stay in the file
    """)
    subprocess.run([sys.executable, "-c", script], check=True, timeout=30)
    files = sorted(p.name for p in tmp_path.iterdir())
    assert files == ["server-1.log", "server-1.log.1", "server-1.log.2"]
    # Bounded: each file near the limit (one check interval of lines over at most).
    assert all((tmp_path / name).stat().st_size < 2000 + 3000 for name in files)
    # Both streams follow the fresh file, and the last lines are in it.
    tail = log.read_text()
    assert "last line out" in tail and "last line err" in tail
