"""ChromeProcess.stop waits for the processes of Chromium's group to exit, not for init to reap
them: an exited orphan (a zombie until init reaps it, ~1.2 s late on some VMs) is gone."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from pinchtab.cdp.launcher import ChromeProcess


def group_of_sleeps(tmp_path: Path, count: int) -> tuple[ChromeProcess, list[int]]:
    """``count`` sleeping processes in one new process group, led by the first, as a ChromeProcess."""
    leader = os.posix_spawn("/bin/sleep", ["sleep", "30"], os.environ, setpgroup=0)
    pids = [leader] + [os.posix_spawn("/bin/sleep", ["sleep", "30"], os.environ, setpgroup=leader)
                       for _ in range(count - 1)]
    return ChromeProcess(leader, tmp_path, False, -1, -1, tmp_path / "log", tmp_path), pids


def test_live_members_are_found_and_exited_ones_are_not(tmp_path: Path) -> None:
    proc, pids = group_of_sleeps(tmp_path, 3)
    try:
        assert sorted(proc._live_in_group(None)) == sorted(pids)
        os.kill(pids[1], signal.SIGKILL)
        os.waitid(os.P_PID, pids[1], os.WEXITED | os.WNOWAIT)  # exited, not reaped: a zombie
        assert sorted(proc._live_in_group(pids)) == sorted([pids[0], pids[2]])
        proc.kill_group(signal.SIGKILL)
        for pid in pids:
            os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
        # Only zombies are left: the group still "exists" for killpg, but nothing in it runs.
        assert proc._group_alive() and proc._live_in_group(None) == []
    finally:
        proc.kill_group(signal.SIGKILL)
        for pid in pids:
            os.waitpid(pid, 0)
