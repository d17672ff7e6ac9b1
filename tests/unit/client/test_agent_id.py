"""X-Agent-Id from the client: its agent_id (or PINCHTAB_AGENT_ID), else the MCP client's name."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import httpx
import pytest

from pinchtab.client import AsyncClient, Client, calling_agent


def _echo(request: httpx.Request) -> httpx.Response:
    return httpx.Response(200, json={"agent": request.headers.get("x-agent-id"),
                                     "auth": request.headers.get("authorization")})


def test_agent_id_and_session_go_with_every_request(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINCHTAB_AGENT_ID", "from-env")
    for pt, agent in ((Client("http://x", token="t", agent_id="bosch"), "bosch"), (Client("http://x", token="t"), "from-env")):
        pt._http = httpx.Client(base_url=pt.server_url, headers=pt._headers, transport=httpx.MockTransport(_echo))
        assert pt.call("agents") == {"agent": agent, "auth": "Bearer t"}
    monkeypatch.setenv("PINCHTAB_SESSION", "ses_abc")
    pt = Client("http://x", token="t")
    assert pt._headers["Authorization"] == "Session ses_abc"


def test_without_an_agent_id_the_mcp_client_name_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    from pinchtab.mcp.server import client_name  # the MCP SDK: here, not at every worker's collection

    monkeypatch.delenv("PINCHTAB_AGENT_ID", raising=False)
    pt = AsyncClient("http://x", token="", agent_id="")
    pt._http = httpx.AsyncClient(base_url=pt.server_url, transport=httpx.MockTransport(_echo))
    ctx = SimpleNamespace(session=SimpleNamespace(client_params=SimpleNamespace(client_info=SimpleNamespace(name="claude-code"))))

    async def tool_call() -> object:
        calling_agent.set(client_name(ctx))  # what every MCP tool handler does first
        return await pt.call("agents")

    assert asyncio.run(tool_call()) == {"agent": "claude-code", "auth": None}
    assert client_name(SimpleNamespace()) is None
