"""`pinchtab mcp` answers `initialize` before the SDK loads (pinchtab.mcp.early): the early answer
must be the SDK's own, and the SDK's copy must not reach the client a second time. A session
spawned here has an explicit --server where nothing listens: it must not auto-start one there, and
its tools answer that the connection is refused."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from pinchtab.config import load_config
from pinchtab.mcp import early
from tests.fixtures.harness import free_port


def _session(batches: list[tuple[list[dict], int]], tmp: Path, server: str = "http://127.0.0.1:9") -> tuple[list[dict], str]:
    """Run `pinchtab mcp --tools core,tabs --server SERVER` (nothing listens there; tabs has
    pinchtab_health) and, batch by batch, send its messages and read that many answers (stdin stays
    open until the last: the SDK may drop a request still in flight at EOF); all its answers and
    its stderr."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "PINCHTAB_CONFIG": str(tmp / "none.json")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pinchtab", "mcp", "--tools", "core,tabs", "--server", server],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
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
    assert early.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


def test_early_answer_is_the_sdks_and_is_sent_once_and_a_server_down_is_connection_refused(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    tail = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 99, "method": "ping"}]
    calls = [_call(100, "pinchtab_health", {}), _call(101, "pinchtab_navigate", {"url": "http://example.com"})]
    answers, stderr = _session([([_init(1, "2025-06-18"), *tail], 2), (calls, 2)], tmp_path, url)
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


async def _sdk_answer(message: dict) -> dict:
    """The SDK's answer to ``message``, from the server ``pinchtab mcp`` builds, in this process."""
    from mcp import types
    from mcp.client._memory import InMemoryTransport
    from mcp.shared.message import SessionMessage

    from pinchtab.client import AsyncClient
    from pinchtab.mcp.server import build_server

    async with InMemoryTransport(build_server(AsyncClient("http://127.0.0.1:9", None))) as (read, write, *_):
        await write.send(SessionMessage(types.jsonrpc_message_adapter.validate_python(message, by_name=False)))
        answer = await read.receive()
    return json.loads(answer.message.model_dump_json(by_alias=True, exclude_unset=True))  # as stdio writes it


def test_early_answer_to_an_unknown_version_is_the_sdks() -> None:
    """An unknown version gets the latest: what the SDK answers (the spawned session above shows the
    early answer is the one sent, and sent once)."""
    answer = asyncio.run(_sdk_answer(_init("a", "1999-01-01")))
    assert answer == {"jsonrpc": "2.0", "id": "a", "result": early.initialize_result("1999-01-01")}


def test_a_first_message_other_than_initialize_waits_for_the_sdk(tmp_path: Path) -> None:
    answers, _ = _session([([{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"bad": 1}}], 1)], tmp_path)
    assert len(answers) == 1 and answers[0]["id"] == 7 and "error" in answers[0]  # the SDK's own error


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
