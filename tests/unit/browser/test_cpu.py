"""CPU work runs off the event loop with a deadline (issue 16: a big find froze a bridge)."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable

import pytest

from pinchtab import cancellation
from pinchtab.browser.core.cpu import off_loop
from pinchtab.cancellation import checkpoint
from pinchtab.errors import Timeout


def busy(until: Callable[[], bool], cap: float = 10.0) -> str:
    """CPU work (it holds the GIL between switches) until ``until()`` or ``cap`` seconds: a fixed
    length spun a second of the worker's CPU for what a few ticks of the loop show."""
    end = time.monotonic() + cap
    while not until() and time.monotonic() < end:
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
    # The work spins until the loop has ticked five times: on the loop it would have allowed none
    # and spun to its cap.
    assert await off_loop(busy, lambda: ticks >= 5, what="test") == "done"
    task.cancel()
    assert ticks >= 5


async def test_work_past_its_deadline_answers_504() -> None:
    released = threading.Event()  # the work runs past its deadline until the test has seen the 504
    with pytest.raises(Timeout) as info:
        await off_loop(busy, released.is_set, what="find", deadline=0.1)
    assert info.value.status == 504 and info.value.code == "work_timeout" and "find" in info.value.message
    released.set()  # the abandoned work ends: the next test finds the worker idle
    await asyncio.get_running_loop().run_in_executor(None, idle_worker)


def stepping(started: threading.Event, steps: list[int]) -> str:
    """Work of many short steps, each ending at a checkpoint (as find's index build)."""
    started.set()
    for i in range(100_000):
        time.sleep(0.001)
        steps.append(i)
        checkpoint()
    return "ran to its end"


def idle_worker() -> None:
    from pinchtab.browser.core import cpu

    cpu._executor.submit(lambda: None).result(timeout=10)


async def test_work_past_its_deadline_stops_at_its_next_checkpoint() -> None:
    from pinchtab.browser.core import cpu

    before, steps = cpu.stopped, []
    # 0.3 s, not less: on a machine at load 20+ the worker thread may not have taken the work yet
    # after 0.05 s, and work given up before it starts is not "stopped at a checkpoint".
    with pytest.raises(Timeout):
        await off_loop(stepping, threading.Event(), steps, what="find", deadline=0.3)
    await asyncio.get_running_loop().run_in_executor(None, idle_worker)
    assert cpu.stopped == before + 1 and 0 < len(steps) < 100_000


async def test_work_of_a_cancelled_request_stops_and_queued_work_never_starts() -> None:
    from pinchtab.browser.core import cpu

    before, started, first, second = cpu.stopped, threading.Event(), [], []
    running = asyncio.ensure_future(off_loop(stepping, started, first, what="find"))
    queued = asyncio.ensure_future(off_loop(stepping, threading.Event(), second, what="find"))
    await asyncio.get_running_loop().run_in_executor(None, started.wait, 10)
    queued.cancel()  # behind the first in the one worker: given up before it starts
    running.cancel()
    for task in (running, queued):
        with pytest.raises(asyncio.CancelledError):
            await task
    await asyncio.get_running_loop().run_in_executor(None, idle_worker)
    assert cpu.stopped == before + 2 and second == [] and len(first) < 100_000


def test_a_checkpoint_outside_cancellable_work_does_nothing() -> None:
    checkpoint()
    flag = threading.Event()
    assert cancellation.run(lambda: "done", flag) == "done"
    flag.set()
    with pytest.raises(cancellation.Cancelled):
        cancellation.run(lambda: "done", flag)
