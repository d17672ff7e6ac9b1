"""Cooperative cancellation of CPU work in a worker thread (``browser.core.cpu``): a thread cannot
be stopped from outside, so the request that gives up on the work sets its flag, and the work's
long loops (find's index build, snapshot shaping) call ``checkpoint()`` between steps and stop
there. A step is never cut in half, so shared caches are left whole."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

_local = threading.local()
# A loop over elements checks every 64th (a mask: ``if not i & CHECK_EVERY``): a check per
# element was 4 calls per element of find's index build, ~14% of it.
CHECK_EVERY = 63


class Cancelled(BaseException):
    """The work was abandoned by the request that asked for it (a BaseException, as
    asyncio.CancelledError: an ``except Exception`` in the work must not swallow it)."""


def run(fn: Callable[[], T], flag: threading.Event) -> T:
    """``fn()`` in this thread, stopping at its next ``checkpoint()`` once ``flag`` is set (at
    once when it was set before the work started)."""
    if flag.is_set():
        raise Cancelled
    _local.flag = flag
    try:
        return fn()
    finally:
        _local.flag = None


def checkpoint() -> None:
    """Raise ``Cancelled`` when the work running in this thread has been abandoned."""
    flag = getattr(_local, "flag", None)
    if flag is not None and flag.is_set():
        raise Cancelled
