"""`pinchtab mcp --transport http`: the same tools over the SDK's Streamable HTTP transport, behind
a bearer token, driven by the SDK's own HTTP client against a live bridge."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import time
from collections.abc import Iterator

import httpx
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

from pinchtab.mcp.tools import TOOLS
from tests.conftest import free_port

TOKEN = "mcp-token-0123456789"


@pytest.fixture(scope="module")
def mcp_url(bridge: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCHTAB_")}
    env["PINCHTAB_CONFIG"] = str(tmp_path_factory.mktemp("mcp") / "none.json")
    log = open(tmp_path_factory.mktemp("mcplog") / "mcp.log", "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "pinchtab", "mcp", "--transport", "http", "--port", str(port), "--mcp-token", TOKEN,
         "--tools", "all", "--server", bridge, "--no-autostart"], env=env, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 120  # a bound, not a wait: at load 25 it took over 60 s
        while True:
            assert proc.poll() is None and time.monotonic() < deadline, "pinchtab mcp --transport http did not start"
            try:
                if httpx.get(f"{base}/health", timeout=2, trust_env=False).status_code == 200:
                    break
            except httpx.HTTPError:
                time.sleep(0.05)
        yield f"{base}/mcp"
    finally:
        proc.terminate()
        proc.wait(20)
        log.close()


async def _session_calls(url: str, pages: str) -> tuple[list[str], dict, str]:
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
def test_the_endpoint_needs_the_token(mcp_url: str, headers: dict[str, str]) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
    res = httpx.post(mcp_url, json=body, headers={"Accept": "application/json, text/event-stream", **headers}, trust_env=False)
    assert res.status_code == 401 and res.headers["www-authenticate"] == "Bearer"


def test_http_transport_refuses_to_start_without_a_token() -> None:
    # In process: the command refuses before it serves (the fixture above runs the real entry point).
    from click.testing import CliRunner

    from pinchtab.cli import main

    unset = {k: None for k in os.environ if k.startswith("PINCHTAB_")}
    out = CliRunner().invoke(main, ["mcp", "--transport", "http", "--port", str(free_port())], env=unset)
    assert out.exit_code != 0 and "needs a token" in out.stderr
