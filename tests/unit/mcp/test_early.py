"""`pinchtab mcp` answers `initialize` before the SDK loads (pinchtab.mcp.early): the early answer
must be the SDK's own, and the SDK's copy must not reach the client a second time."""

from __future__ import annotations

import json
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from mcp_types.version import HANDSHAKE_PROTOCOL_VERSIONS

from pinchtab.config import load_config
from pinchtab.mcp import early


def _session(lines: list[dict], tmp: Path, answers: int) -> tuple[list[dict], str]:
    """Run `pinchtab mcp` (no server: nothing is called) with these messages; its first ``answers``
    answers (stdin stays open until then: the SDK may drop a request still in flight at EOF) and
    its stderr."""
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp), "PINCHTAB_CONFIG": str(tmp / "none.json")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "pinchtab", "mcp", "--server", "http://127.0.0.1:9", "--no-autostart"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env,
    )
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdin.write("".join(json.dumps(m) + "\n" for m in lines).encode())
    proc.stdin.flush()
    got = [json.loads(proc.stdout.readline()) for _ in range(answers)]
    proc.stdin.close()
    rest = proc.stdout.read()
    err = proc.stderr.read() if proc.stderr else b""
    proc.wait(60)
    return got + [json.loads(line) for line in rest.splitlines()], err.decode()


def _init(rid: object, version: str) -> dict:
    return {"jsonrpc": "2.0", "id": rid, "method": "initialize",
            "params": {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}


def test_versions_are_the_sdks() -> None:
    assert early.HANDSHAKE_VERSIONS == HANDSHAKE_PROTOCOL_VERSIONS


def test_early_answer_is_the_sdks_and_is_sent_once(tmp_path: Path) -> None:
    cases = [("2025-06-18", 1), ("1999-01-01", "a")]  # a known version; an unknown one gets the latest
    tail = [{"jsonrpc": "2.0", "method": "notifications/initialized"}, {"jsonrpc": "2.0", "id": 99, "method": "ping"}]
    with ThreadPoolExecutor(len(cases)) as pool:
        runs = list(pool.map(lambda c: _session([_init(c[1], c[0]), *tail], tmp_path, 2), cases))
    for (version, rid), (answers, stderr) in zip(cases, runs):
        assert "differs" not in stderr, stderr
        assert [a["id"] for a in answers] == [rid, 99]  # initialize once, then the SDK's answer to ping
        assert answers[0]["result"] == early.initialize_result(version)
        assert answers[1]["result"] == {}


def test_a_first_message_other_than_initialize_waits_for_the_sdk(tmp_path: Path) -> None:
    answers, _ = _session([{"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {"bad": 1}}], tmp_path, 1)
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
