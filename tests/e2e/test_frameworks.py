"""pinchtab's MCP tools through agent frameworks' own MCP clients and tool objects (no LLM):
pydantic-ai (examples/pydantic_ai_agent.py, a scripted FunctionModel driving a real Agent) and
LangChain (examples/langchain_agent.py, run in .venv-langchain: langchain-mcp-adapters needs mcp<2,
pinchtab mcp>=2). Each navigates to a fixture page and snapshots it through the framework's tools.
Both are served the server `pinchtab mcp --server <bridge>` builds, in this process: pydantic-ai's
over fastmcp's in-memory transport, after a check that the example's toolset spawns the command it
is given; LangChain's over stdio, the command it spawns relaying its stdin and stdout to a socket
of this process (a `pinchtab mcp` process cost ~1.5-2.5 s of CPU, the MCP SDK's import most of it;
test_mcp.py runs the real one). LangChain's process starts with the module, so its imports run
beside the pydantic-ai test (and its imports)."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import importlib.util
import io
import json
import socket
import subprocess
import sys
import threading
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGCHAIN_PYTHON = ROOT / ".venv-langchain" / "bin" / "python"


def example(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "examples" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@contextlib.contextmanager
def collector_off() -> Iterator[None]:
    """pydantic-ai, fastmcp and the MCP SDK load ~100k objects that all live on: looking for cycles
    among them while they load (each full collection walks the worker's whole heap) was ~10% of the
    import's CPU (5.2-5.8 s -> 4.7-5.2 s on a busy machine)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def mcp_command(bridge: str) -> list[str]:
    return [sys.executable, "-m", "pinchtab", "mcp", "--server", bridge, "--no-autostart"]


def pinchtab_mcp_server(bridge: str) -> object:
    """The MCP server `pinchtab mcp --server <bridge> --no-autostart` builds (its default tools)."""
    from pinchtab.client import AsyncClient
    from pinchtab.mcp.server import build_server
    from pinchtab.mcp.tools import DEFAULT_TOOLS, select_tools

    return build_server(AsyncClient(bridge, None, agent_id=""), tools=select_tools(DEFAULT_TOOLS))


# The MCP server command LangChain is given: its stdin to the socket at argv[1], the socket to its stdout.
RELAY = """import socket, sys, threading
wire = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
def up():
    for chunk in iter(lambda: sys.stdin.buffer.read1(65536), b""):
        wire.sendall(chunk)
    wire.shutdown(socket.SHUT_WR)
threading.Thread(target=up, daemon=True).start()
for chunk in iter(lambda: wire.recv(65536), b""):
    sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
"""


def serve_mcp_on(listener: socket.socket, bridge: str) -> None:
    """Serves the MCP server over the first connection to ``listener``, as `pinchtab mcp` serves it over
    its stdin and stdout (the SDK's stdio transport), until the client closes its side."""
    import anyio
    from mcp.server.stdio import stdio_server

    try:
        conn, _ = listener.accept()
    except OSError:  # closed: the client never came
        return

    async def serve() -> None:
        server: Any = pinchtab_mcp_server(bridge)
        lowlevel = server._lowlevel_server  # what run("stdio") runs (and the SDK's in-memory transport)
        stdin = anyio.wrap_file(io.TextIOWrapper(conn.makefile("rb"), encoding="utf-8"))
        stdout = anyio.wrap_file(io.TextIOWrapper(conn.makefile("wb"), encoding="utf-8"))
        async with stdio_server(stdin, stdout) as (read, write):
            await lowlevel.run(read, write, lowlevel.create_initialization_options())

    with conn:
        asyncio.run(serve())


@pytest.fixture(scope="module", autouse=True)
def langchain_check(bridge: str, pages: str,
                    tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[subprocess.Popen[bytes], Path] | None]:
    """examples/langchain_agent.py --check on the login page, started before the module's first test
    (None when .venv-langchain is missing), its MCP server served by a thread of this process. Its
    output goes to files, so nothing blocks on a full pipe while no one reads it."""
    if not LANGCHAIN_PYTHON.exists():
        yield None
        return
    out = tmp_path_factory.mktemp("langchain")
    listener = socket.create_server(("127.0.0.1", 0))
    serving = threading.Thread(target=serve_mcp_on, args=(listener, bridge), daemon=True)
    serving.start()
    relay = [sys.executable, "-I", "-S", "-c", RELAY, str(listener.getsockname()[1])]
    with open(out / "stdout", "wb") as stdout, open(out / "stderr", "wb") as stderr:
        proc = subprocess.Popen([str(LANGCHAIN_PYTHON), str(ROOT / "examples" / "langchain_agent.py"), "--check",
                                 f"{pages}/login.html", "--", *relay], stdout=stdout, stderr=stderr)
    yield proc, out
    if proc.poll() is None:  # its test failed before the end
        proc.kill()
        proc.wait()
    listener.close()
    serving.join(10)


@pytest.fixture(scope="module")
def pydantic_ai_example() -> ModuleType:
    with collector_off():
        return example("pydantic_ai_agent")


@pytest.fixture(scope="module")
async def pydantic_ai_toolset(pydantic_ai_example: ModuleType, bridge: str) -> AsyncIterator[object]:
    with collector_off():
        from fastmcp.client.transports import FastMCPTransport
        from pydantic_ai.mcp import MCPToolset

        server = pinchtab_mcp_server(bridge)

    command = mcp_command(bridge)
    spawning = pydantic_ai_example.pinchtab_toolset(command).client.transport
    assert (spawning.command, spawning.args) == (command[0], command[1:])
    toolset = MCPToolset(FastMCPTransport(server))
    async with toolset:
        yield toolset


async def test_pydantic_ai_agent_navigates_and_snapshots(pydantic_ai_example: ModuleType, pydantic_ai_toolset: object,
                                                         pages: str) -> None:
    url = f"{pages}/login.html"
    seen: list[list[str]] = []
    model = pydantic_ai_example.scripted_browsing(url)
    respond = model.function

    def recording(messages, info):  # the tool list the agent hands its model
        seen.append(sorted(t.name for t in info.function_tools))
        return respond(messages, info)

    model.function = recording
    agent = pydantic_ai_example.make_agent(model, pydantic_ai_toolset)
    result = await agent.run("Open the login page and read it")
    assert {"pinchtab_navigate", "pinchtab_snapshot", "pinchtab_click", "pinchtab_find"} <= set(seen[0])
    assert len(seen) == 3  # navigate, snapshot, answer
    snapshot = str(result.output)
    assert 'textbox "Email address"' in snapshot and 'button "Log in"' in snapshot
    calls = [p for m in result.all_messages() for p in m.parts if p.part_kind == "tool-return"]
    assert [c.tool_name for c in calls] == ["pinchtab_navigate", "pinchtab_snapshot"]
    assert calls[0].content["url"] == url and calls[0].content["title"] == "Login"


def test_langchain_tools_navigate_and_snapshot(langchain_check: tuple[subprocess.Popen[bytes], Path] | None,
                                              pages: str) -> None:
    if langchain_check is None:
        pytest.fail(f"{LANGCHAIN_PYTHON} is missing: scripts/bootstrap.sh --dev makes it")
    proc, out = langchain_check
    url = f"{pages}/login.html"
    proc.wait(timeout=180)
    assert proc.returncode == 0, (out / "stderr").read_text(errors="replace")[-3000:]
    answer = json.loads((out / "stdout").read_text())
    assert {"pinchtab_navigate", "pinchtab_snapshot", "pinchtab_click", "pinchtab_find"} <= set(answer["tools"])
    assert (answer["navigate"]["url"], answer["navigate"]["title"]) == (url, "Login")
    assert 'textbox "Email address"' in answer["snapshot"] and 'button "Log in"' in answer["snapshot"]
