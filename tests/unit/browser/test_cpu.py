"""CPU work runs off the event loop with a deadline (issue 16: a big find froze a bridge)."""

from __future__ import annotations

import asyncio
import time

import pytest

from pinchtab.browser.core.cpu import off_loop
from pinchtab.errors import Timeout


def busy(seconds: float) -> str:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        sum(range(1000))
    return "done"


async def test_the_loop_keeps_answering_while_work_runs() -> None:
    ticks = 0

    async def ticker() -> None:
        nonlocal ticks
        while True:
            await asyncio.sleep(0.01)
            ticks += 1

    task = asyncio.ensure_future(ticker())
    assert await off_loop(busy, 1.0, what="test") == "done"
    task.cancel()
    assert ticks >= 5  # on the loop, a 1 s computation would have allowed none (typically ~90 here)


async def test_work_past_its_deadline_answers_504() -> None:
    with pytest.raises(Timeout) as info:
        await off_loop(busy, 0.6, what="find", deadline=0.1)
    assert info.value.status == 504 and info.value.code == "work_timeout" and "find" in info.value.message
    await asyncio.sleep(0.6)  # let the abandoned job finish before the next test uses the worker
