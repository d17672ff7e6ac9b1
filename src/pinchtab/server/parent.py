"""Used by a bridge the server started (``pinchtab bridge --parent-pid PID``): shut down when the
server process is gone, however it went (exit, crash, SIGKILL).

A daemon thread waits on a pidfd of the parent (or polls ``os.getppid()`` where pidfds are not
available), then sends this process SIGTERM, which uvicorn turns into a clean shutdown: the
bridge's lifespan closes its Chromium. Should that hang, the thread ends the process after
``grace`` seconds; Chromium, attached by ``--remote-debugging-pipe``, exits when the pipe closes.

Neither runs while the event loop is blocked inside a C call that holds the GIL (a regular expression
that backtracks kept a bridge alive for 20 minutes after its server was gone). On Linux the kernel
therefore also kills the bridge when its parent dies (``PR_SET_PDEATHSIG``).
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import select
import signal
import sys
import threading
import time

log = logging.getLogger("pinchtab.bridge")

POLL = 0.5
PR_SET_PDEATHSIG = 1


def _wait_for_exit(parent_pid: int) -> None:
    try:
        fd = os.pidfd_open(parent_pid)
    except (AttributeError, OSError):
        fd = None
    if fd is not None:
        try:
            if os.getppid() != parent_pid:  # gone before the pidfd was opened
                return
            select.select([fd], [], [])
            return
        finally:
            os.close(fd)
    while os.getppid() == parent_pid:
        time.sleep(POLL)


def _watch(parent_pid: int, grace: float) -> None:
    _wait_for_exit(parent_pid)
    log.warning("parent process %s is gone; shutting down", parent_pid)
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(grace)
    os._exit(1)


def exit_with_parent(parent_pid: int, grace: float = 10.0) -> None:
    """Stop this process when ``parent_pid`` exits. Exits at once if it is not our parent (any
    more): the server that started us died before we got here."""
    _killed_with_parent()
    if os.getppid() != parent_pid:
        raise SystemExit(f"pinchtab bridge: parent process {parent_pid} is gone; not starting")
    threading.Thread(target=_watch, args=(parent_pid, grace), name="pinchtab-parent-watch", daemon=True).start()


def _killed_with_parent() -> None:
    """Linux only: SIGKILL from the kernel when the parent exits, whatever this process is doing."""
    if not sys.platform.startswith("linux"):
        return
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
