"""The proxy's streamed answers (server.proxy): an event stream ends when its caller hangs up, a
finite body ends with its last chunk, an upstream that breaks off cuts the body short."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

from pinchtab.server.proxy import _stream_until_caller_leaves
from pinchtab.server.upstream import UpstreamError


class Inst:
    id = "inst_test"


class Upstream:
    """An upstream answer with ``chunks``, then (``endless``) keep-alive comments for ever."""

    def __init__(self, chunks: list[bytes], endless: bool = False, breaks: bool = False) -> None:
        self.chunks, self.endless, self.breaks = chunks, endless, breaks

    async def iter_bytes(self) -> AsyncIterator[bytes]:
        for chunk in self.chunks:
            yield chunk
        if self.breaks:
            raise UpstreamError("connection reset")
        while self.endless:
            yield b": keepalive\n\n"
            await asyncio.sleep(0)


class Caller:
    """The ASGI side: ``send`` records, ``receive`` says the caller left once ``hangup_after``
    chunks were sent (never, when None)."""

    def __init__(self, hangup_after: int | None) -> None:
        self.sent: list[dict[str, Any]] = []
        self.hangup_after = hangup_after
        self.gone = asyncio.Event()

    async def send(self, message: dict[str, Any]) -> None:
        self.sent.append(message)
        if self.hangup_after is not None and len(self.sent) >= self.hangup_after:
            self.gone.set()

    async def receive(self) -> dict[str, Any]:
        await self.gone.wait()
        return {"type": "http.disconnect"}


async def test_an_endless_stream_ends_when_its_caller_hangs_up() -> None:
    caller = Caller(hangup_after=3)
    await asyncio.wait_for(_stream_until_caller_leaves(Inst(), Upstream([b"event: a\n\n"], endless=True),
                                                       caller.receive, caller.send), 10)
    bodies = [m["body"] for m in caller.sent]
    assert bodies[0] == b"event: a\n\n" and bodies[1:3] == [b": keepalive\n\n"] * 2
    assert caller.gone.is_set()


async def test_a_finite_body_ends_with_its_last_chunk_while_the_caller_stays() -> None:
    caller = Caller(hangup_after=None)
    await asyncio.wait_for(_stream_until_caller_leaves(Inst(), Upstream([b"one", b"", b"two"]),
                                                       caller.receive, caller.send), 10)
    assert caller.sent == [{"type": "http.response.body", "body": b"one", "more_body": True},
                           {"type": "http.response.body", "body": b"two", "more_body": True},
                           {"type": "http.response.body", "body": b""}]


async def test_an_upstream_that_breaks_off_cuts_the_body_short() -> None:
    caller = Caller(hangup_after=None)
    await asyncio.wait_for(_stream_until_caller_leaves(Inst(), Upstream([b"one"], breaks=True),
                                                       caller.receive, caller.send), 10)
    assert [m["body"] for m in caller.sent] == [b"one", b""] and "more_body" not in caller.sent[-1]
