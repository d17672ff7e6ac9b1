"""CPU-heavy work (find's matching and index builds, snapshot shaping) off the event loop, with a
deadline, so ``/health`` and other tabs answer while one request computes.

One worker thread: find's caches are shared between tabs and not built for concurrent writers,
and the work is short once inputs are capped (``pinchtab.models`` MAX_*), so one queue suffices.
Work its request gave up on (past the deadline, or the request cancelled) stops at its next
checkpoint (``pinchtab.cancellation``) instead of holding the worker until it ends.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pinchtab import cancellation
from pinchtab.errors import Timeout

T = TypeVar("T")
log = logging.getLogger("pinchtab.cpu")

DEADLINE_S = 20.0
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pinchtab-cpu")
stopped = 0  # works stopped at a checkpoint after their request gave up on them


async def off_loop(fn: Callable[..., T], *args: Any, what: str, deadline: float | None = None, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the CPU worker; 504 ``work_timeout`` past ``deadline`` seconds
    (``DEADLINE_S`` when None), and the work stops."""
    limit = DEADLINE_S if deadline is None else deadline
    flag = threading.Event()
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(_executor, _run, functools.partial(fn, *args, **kwargs), flag, what)
    try:
        return await asyncio.wait_for(asyncio.shield(future), limit)
    except asyncio.TimeoutError:
        _abandon(future, flag)
        raise Timeout(f"{what} took longer than {limit:g} s and was abandoned; make the input smaller",
                      "work_timeout") from None
    except asyncio.CancelledError:
        _abandon(future, flag)
        raise


def _run(call: Callable[[], T], flag: threading.Event, what: str) -> T:
    global stopped
    try:
        return cancellation.run(call, flag)
    except cancellation.Cancelled:
        stopped += 1
        log.info("%s stopped: its request gave up on it", what)
        raise


def _abandon(future: "asyncio.Future[Any]", flag: threading.Event) -> None:
    flag.set()
    future.add_done_callback(_consume)


def _consume(future: "asyncio.Future[Any]") -> None:
    if not future.cancelled():
        future.exception()  # retrieved: nobody waits for it any more
