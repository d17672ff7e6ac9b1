"""CPU-heavy work (find's matching and index builds, snapshot shaping) off the event loop, with a
deadline, so ``/health`` and other tabs answer while one request computes.

One worker thread: find's caches are shared between tabs and not built for concurrent writers,
and the work is short once inputs are capped (``pinchtab.models`` MAX_*), so one queue suffices.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from pinchtab.errors import Timeout

T = TypeVar("T")

DEADLINE_S = 20.0
_executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="pinchtab-cpu")


async def off_loop(fn: Callable[..., T], *args: Any, what: str, deadline: float = DEADLINE_S, **kwargs: Any) -> T:
    """``fn(*args, **kwargs)`` in the CPU worker; 504 ``work_timeout`` past ``deadline`` seconds."""
    loop = asyncio.get_running_loop()
    future = loop.run_in_executor(_executor, functools.partial(fn, *args, **kwargs))
    try:
        return await asyncio.wait_for(asyncio.shield(future), deadline)
    except asyncio.TimeoutError:
        raise Timeout(f"{what} took longer than {deadline:g} s and was abandoned; make the input smaller",
                      "work_timeout") from None
