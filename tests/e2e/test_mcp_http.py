"""`pinchtab mcp --transport http`: the same tools over the SDK's Streamable HTTP transport, behind
a bearer token, driven by the SDK's own HTTP client against a live bridge. The command runs in this
process and its app is served over real HTTP (the real `pinchtab mcp` process is tested on stdio:
test_mcp.py's auto-start and tests/unit/mcp/test_early.py)."""

from __future__ import annotations

import asyncio
import json
import os
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from pinchtab.cli import main
from pinchtab.mcp.tools import TOOLS
from tests.conftest import ServerThread, free_port

TOKEN = "mcp-token-0123456789"


@pytest.fixture(scope="module")
def mcp_url(bridge: str, plain: httpx.Client, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`pinchtab mcp --transport http ...` run in this process (CliRunner), its ``uvicorn.run`` of the
    app replaced by uvicorn in a thread (ServerThread): the same app over real HTTP, with no
    interpreter to start and no SDK to import again (about 2.4 s of CPU less)."""
    # The SDK (pinchtab.mcp.http imports it) is loaded here, not when the module is collected.
    from pinchtab.mcp import http as mcp_http

    served: dict[str, Any] = {}

    def serve_http(server: Any, *, host: str, port: int, token: str, log_level: str) -> None:
        served.update(server=server, host=host, port=port, token=token)

    port = free_port()
    env: dict[str, str | None] = {k: None for k in os.environ if k.startswith("PINCHTAB_")}
    env["PINCHTAB_CONFIG"] = str(tmp_path_factory.mktemp("mcp") / "none.json")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(mcp_http, "serve_http", serve_http)
        out = CliRunner().invoke(main, ["mcp", "--transport", "http", "--port", str(port), "--mcp-token", TOKEN,
                                        "--tools", "all", "--server", bridge, "--no-autostart"], env=env)
    assert out.exit_code == 0 and (served["host"], served["port"], served["token"]) == ("127.0.0.1", port, TOKEN), out.output
    app = mcp_http.http_app(served["server"], host=served["host"], token=served["token"])
    with ServerThread(app, port) as thread:
        assert plain.get(f"{thread.url}/health").status_code == 200  # public
        yield f"{thread.url}/mcp"


@pytest.fixture(scope="module")
def plain() -> Iterator[httpx.Client]:
    """One client for the plain requests (httpx.get and httpx.post make one, and its TLS context, per call)."""
    with httpx.Client(timeout=10, trust_env=False) as client:
        yield client


async def _session_calls(url: str, pages: str) -> tuple[list[str], dict, str]:
    from mcp.client.session import ClientSession
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"}) as http:
        async with streamable_http_client(url, http_client=http) as (read, write, *_):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = [t.name for t in (await session.list_tools()).tools]
                nav = await session.call_tool("pinchtab_navigate", {"url": f"{pages}/buttons.html"})
                assert not nav.is_error, nav.content
                tab = json.loads(nav.content[0].text)["tabId"]
                text = await session.call_tool("pinchtab_get_text", {"tabId": tab})
                await session.call_tool("pinchtab_close_tab", {"tabId": tab})
                return tools, json.loads(nav.content[0].text), text.content[0].text


def test_tools_over_streamable_http(mcp_url: str, pages: str) -> None:
    tools, nav, text = asyncio.run(_session_calls(mcp_url, pages))
    assert sorted(tools) == sorted(t.name for t in TOOLS)
    assert nav["title"] == "Buttons" and "Increment" in text


@pytest.mark.parametrize("headers", [{}, {"Authorization": "Bearer wrong"}, {"Authorization": f"bearer {TOKEN}x"}])
def test_the_endpoint_needs_the_token(mcp_url: str, plain: httpx.Client, headers: dict[str, str]) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    res = plain.post(mcp_url, json=body, headers={"Accept": "application/json, text/event-stream", **headers})
    assert res.status_code == 401 and res.headers["www-authenticate"] == "Bearer"


def test_http_transport_refuses_to_start_without_a_token() -> None:
    # The command refuses before it serves.
    unset = {k: None for k in os.environ if k.startswith("PINCHTAB_")}
    out = CliRunner().invoke(main, ["mcp", "--transport", "http", "--port", str(free_port())], env=unset)
    assert out.exit_code != 0 and "needs a token" in out.stderr
