"""A Chromium started before the bridge loads FastAPI and the browser layer (~0.5-0.9 s of imports
on a small machine), so the two start side by side. ``pinchtab bridge`` calls ``start_for`` as soon
as it has its config; the browser's first start takes that process (``take``) when it was launched
with exactly the arguments it would use itself, and kills it otherwise.
"""

from __future__ import annotations

import atexit
import contextlib
import os
import signal
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from pinchtab.cdp.launcher import ChromeProcess, browser_binary
from pinchtab.errors import BrowserError

_waiting: tuple[tuple[Any, ...], ChromeProcess] | None = None
atexit.register(lambda: discard())  # the bridge stopped before its browser started (a bad flag, ...)


def _key(binary: str, headless: bool, user_data_dir: str | Path | None, extra_args: Sequence[str]) -> tuple[Any, ...]:
    return binary, headless, str(user_data_dir) if user_data_dir else None, tuple(extra_args)


def start(binary: str, *, headless: bool, user_data_dir: str | Path | None, extra_args: Sequence[str]) -> None:
    global _waiting
    discard()
    _waiting = (_key(binary, headless, user_data_dir, extra_args),
                ChromeProcess.spawn(binary, headless=headless, user_data_dir=user_data_dir, extra_args=extra_args))


def start_for(browser: Any) -> None:
    """Start the Chromium a ``BrowserConfig`` asks for, unless it attaches to one (``cdpUrl``). A
    failure is left to the browser's own start, which reports it."""
    if browser.cdp_url:
        return
    with contextlib.suppress(BrowserError, OSError):
        start(browser_binary(browser), headless=browser.headless, user_data_dir=browser.profile_dir,
              extra_args=browser.extra_args)


def take(binary: str, *, headless: bool, user_data_dir: str | Path | None, extra_args: Sequence[str]) -> ChromeProcess | None:
    """The waiting Chromium when it was started with these arguments (watched from now on), else None."""
    global _waiting
    if _waiting is None:
        return None
    key, proc = _waiting
    _waiting = None
    if key != _key(binary, headless, user_data_dir, extra_args):
        _kill(proc)
        return None
    proc.watch_exit()
    return proc


def discard() -> None:
    global _waiting
    if _waiting is not None:
        _kill(_waiting[1])
        _waiting = None


def _kill(proc: ChromeProcess) -> None:
    proc.kill_group(signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        os.waitpid(proc.pid, 0)
    for fd in (proc.read_fd, proc.write_fd):
        with contextlib.suppress(OSError):
            os.close(fd)
    proc.cleanup()
