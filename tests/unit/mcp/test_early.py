"""`pinchtab mcp` answers `initialize` before the SDK loads (pinchtab.mcp.early): the early answer
must be the SDK's own, and the SDK's copy must not reach the client a second time. A session
spawned here has an explicit --server where nothing listens: it must not auto-start one there, and
its tools answer that the connection is refused."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from pinchtab.config import load_config
from pinchtab.mcp import early
from tests.fixtures.harness import free_port


def _spawn(tmp: Path, server: str = "http://127.0.0.1:9") -> subprocess.Popen[bytes]:
    """Start `pinchtab mcp --tools core,tabs --server SERVER` (nothing listens there; tabs has
    pinchtab_health)."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "PINCHTAB_CONFIG": str(tmp / "none.json")}
    return subprocess.Popen(
        [sys.executable, "-m", "pinchtab", "mcp", "--tools", "core,tabs", "--server", server],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )


Spawned = dict[str, tuple[subprocess.Popen[bytes], str]]


@pytest.fixture(scope="module", autouse=True)
def spawned(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Spawned]:
    """This module's two `pinchtab mcp` processes and their --server, started together as the module
    starts: each loads for a second or two, while the in-process tests run (the tests that talk to
    them come last). "down": a server nothing listens on; "bad": the first message is not an
    initialize the early answer takes."""
    down = f"http://127.0.0.1:{free_port()}"
    procs = {"down": (_spawn(tmp_path_factory.mktemp("down"), down), down),
             "bad": (_spawn(tmp_path_factory.mktemp("bad")), "http://127.0.0.1:9")}
    yield procs
    for proc, _ in procs.values():
        if proc.poll() is None:
            proc.kill()
        proc.wait(60)


def _session(proc: subprocess.Popen[bytes], batches: list[tuple[list[dict], int]]) -> tuple[list[dict], str]:
    """Batch by batch, send a spawned session its messages and read that many answers (stdin stays
    open until the last: the SDK may drop a request still in flight at EOF); all its answers and
    its stderr."""
    assert proc.stdin is not None and proc.stdout is not None
    got = []
    for lines, answers in batches:
        proc.stdin.write("".join(json.dumps(m) + "\n" for m in lines).encode())
        proc.stdin.flush()
        got += [json.loads(proc.stdout.readline()) for _ in range(answers)]
    proc.stdin.close()
    rest = proc.stdout.read()
    err = proc.stderr.read() if proc.stderr else b""
    proc.wait(60)
    return got + [json.loads(line) for line in rest.splitlines()], err.decode()


def _call(rid: int, tool: str, args: dict) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": tool, "arguments": args}}


def _init(rid: object, version: str) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


def _tool_error(answer: dict) -> str:
    """The text of a tool call that failed as a tool error (isError, not a protocol error)."""
    assert answer["result"]["isError"] is True, answer
    return answer["result"]["content"][0]["text"]


def test_versions_are_the_sdks() -> None:
    from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS  # the SDK's types: not at collection

    assert early.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


async def _sdk_answer(message: dict) -> dict:
    """The SDK's answer to ``message``, from the server ``pinchtab mcp`` builds, in this process."""
    from mcp import types
    from mcp.client._memory import InMemoryTransport
    from mcp.shared.message import SessionMessage

    from pinchtab.client import AsyncClient
    from pinchtab.mcp.server import build_server
    from pinchtab.mcp.tools import select_tools

    server = build_server(AsyncClient("http://127.0.0.1:9", None), tools=select_tools("core,tabs"))  # as spawned here
    async with InMemoryTransport(server) as (read, write, *_):
        await write.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(message, by_name=False)))
        answer = await read.receive()
    return json.loads(answer.message.model_dump_json(by_alias=True, exclude_unset=True))  # as stdio writes it


def test_early_answer_to_an_unknown_version_is_the_sdks() -> None:
    """An unknown version gets the latest: what the SDK answers (the spawned session below shows the
    early answer is the one sent, and sent once)."""
    answer = asyncio.run(_sdk_answer(_init("a", "1999-01-01")))
    assert answer == {"jsonrpc": "2.0", "id": "a", "result": early.initialize_result("1999-01-01")}


@pytest.mark.parametrize("env, file, port", [
    ({}, None, 9867),
    ({}, {"server": {"port": 9901}}, 9901),
    ({"PINCHTAB_PORT": "9902"}, {"server": {"port": 9901}}, 9902),
    ({}, {"browser": {}}, 9867),
])
def test_guess_port_matches_the_config(tmp_path: Path, env: dict[str, str], file: dict | None, port: int) -> None:
    path = tmp_path / "config.json"
    if file is not None:
        path.write_text(json.dumps(file))
    environ = {**env, "PINCHTAB_CONFIG": str(path)}
    assert early.guess_port(environ) == port == load_config(environ=environ).server.port


def test_guess_port_leaves_a_broken_file_to_the_normal_path(tmp_path: Path) -> None:
    (tmp_path / "config.json").write_text("{not json")
    assert early.guess_port({"PINCHTAB_CONFIG": str(tmp_path / "config.json")}) is None


@pytest.mark.parametrize("argv, stdio", [
    ([], True), (["--server", "http://h:1"], True), (["--transport", "stdio"], True),
    (["--help"], False), (["-h"], False), (["--transport", "http"], False), (["--transport=http"], False),
])
def test_early_start_is_for_the_stdio_transport(argv: list[str], stdio: bool) -> None:
    assert early.applies(argv) is stdio


# -- the spawned sessions (last: they have loaded by now) --------------------------------------------

def test_early_answer_is_the_sdks_and_is_sent_once_and_a_server_down_is_connection_refused(spawned: Spawned) -> None:
    proc, url = spawned["down"]
    tail = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 99, "method": "ping"}]
    calls = [_call(100, "pinchtab_health", {}), _call(101, "pinchtab_navigate", {"url": "http://example.com"})]
    answers, stderr = _session(proc, [([_init(1, "2025-06-18"), *tail], 2), (calls, 2)])
    assert "differs" not in stderr, stderr
    assert [a["id"] for a in answers[:2]] == [1, 99]  # initialize once, then the SDK's answer to ping
    assert answers[0]["result"] == early.initialize_result("2025-06-18")
    assert answers[1]["result"] == {}

    # an explicit --server is never auto-started
    down = {a["id"]: _tool_error(a) for a in answers[2:]}
    assert sorted(down) == [100, 101]
    assert down[100].startswith("Connection refused")
    assert url in down[100] and "pinchtab server" in down[100] and "pinchtab bridge" in down[100]
    assert down[101].startswith("Connection refused")
    assert "started in the background" not in stderr


def test_a_first_message_other_than_initialize_waits_for_the_sdk(spawned: Spawned) -> None:
    answers, _ = _session(spawned["bad"][0], [([{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"bad": 1}}], 1)])
    assert len(answers) == 1 and answers[0]["id"] == 7 and "error" in answers[0]  # the SDK's own error
