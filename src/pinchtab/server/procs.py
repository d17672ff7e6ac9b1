"""Process helpers (Linux /proc): find the Chromium a bridge started, kill process groups.

Chromium processes are recognised by their ``--user-data-dir=<dir>`` argument, never by name, so a
kill can only reach the browser that runs on a profile this server handed out.
"""

from __future__ import annotations

import contextlib
import os
import signal
from pathlib import Path

PROC = Path("/proc")


def alive(pid: int) -> bool:
    """Is ``pid`` a live (non-zombie) process?"""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except OSError:
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True
    # "pid (comm) S ..." : the state follows the last ')'
    return stat[stat.rfind(")") + 2 : stat.rfind(")") + 3] not in ("Z", "X")


def cmdline(pid: int) -> list[str]:
    try:
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return []
    return [a.decode(errors="replace") for a in raw.split(b"\0") if a]


def pids_using_dir(user_data_dir: str) -> list[int]:
    """Live processes started with ``--user-data-dir=<user_data_dir>`` (Chromium and its helpers
    that carry the flag; helpers share the browser's process group)."""
    flag = f"--user-data-dir={os.path.realpath(user_data_dir)}"
    flag_raw = f"--user-data-dir={user_data_dir}"
    out = []
    try:
        entries = os.listdir(PROC)
    except OSError:
        return out
    for name in entries:
        if not name.isdigit():
            continue
        args = cmdline(int(name))
        if any(a == flag or a == flag_raw for a in args[1:]) and alive(int(name)):
            out.append(int(name))
    return out


def pgid(pid: int) -> int | None:
    try:
        return os.getpgid(pid)
    except OSError:
        return None


def kill_group(group: int, sig: int = signal.SIGKILL) -> None:
    if group <= 1:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(group, sig)


def kill_browsers_on(user_data_dir: str) -> int:
    """SIGKILL every process group running a browser on ``user_data_dir``; how many were found."""
    pids = pids_using_dir(user_data_dir)
    groups = {g for g in (pgid(p) for p in pids) if g}
    own = os.getpgrp()
    for g in groups - {own}:
        kill_group(g)
    for p in pids:  # in case one left its group
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(p, signal.SIGKILL)
    return len(pids)
