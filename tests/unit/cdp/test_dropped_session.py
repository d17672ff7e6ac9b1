"""A command whose session's target went away fails at once instead of waiting out its timeout."""

from __future__ import annotations

import asyncio
import json

import pytest

from pinchtab.cdp.connection import CDPError, Connection


class SilentTransport:
    """Takes commands and never answers them, as Chromium does for a target that is gone."""

    def __init__(self) -> None:
        self.sent: list[dict[str, object]] = []
        self._end = asyncio.Event()

    def send(self, data: bytes) -> None:
        self.sent.append(json.loads(data))

    async def recv(self) -> bytes | None:
        await self._end.wait()
        return None


async def test_dropping_a_session_fails_its_waiting_commands_only() -> None:
    conn = Connection(SilentTransport(), default_timeout=30)
    conn.start()
    on_page = asyncio.create_task(conn.send("Runtime.evaluate", {"expression": "1"}, session_id="S1"))
    on_other = asyncio.create_task(conn.send("Runtime.evaluate", {"expression": "2"}, session_id="S2"))
    await asyncio.sleep(0)
    conn.drop_session("S1")
    with pytest.raises(CDPError) as err:
        await asyncio.wait_for(on_page, 1)
    assert err.value.method == "Runtime.evaluate" and "went away" in err.value.message
    assert not on_other.done()  # another session's command still waits for its answer
    on_other.cancel()
