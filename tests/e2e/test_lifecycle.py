"""Honest health and lifecycle with a real Chromium: an autostarted server that cannot start a
browser exits with the reason, which ``pinchtab mcp`` tool calls then report; ``pinchtab doctor``
with its headless start. ``pinchtab status`` and ``pinchtab stop`` on a running server are
tests/e2e/test_server.py's (its shared server; stop is its last test)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from pinchtab import autostart
from pinchtab.cli import main
from pinchtab.errors import NotReady
from tests.e2e.test_mcp import McpSession
from tests.fixtures.harness import free_port


def isolated_env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCHTAB_")}
    env.update(PINCHTAB_STATE_DIR=str(tmp_path / "state"), PINCHTAB_CONFIG=str(tmp_path / "none.json"), **extra)
    return env


def test_an_autostarted_server_without_a_browser_exits_with_the_reason_which_ensure_server_reports(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # ensure_server starts `python -m pinchtab server --autostarted` (autostart.server_command): one
    # start shows both the server's exit code 3 with its log and what its starter makes of it.
    for key, value in isolated_env(tmp_path, PINCHTAB_CHROME="/nonexistent/chrome").items():
        monkeypatch.setenv(key, value)
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(NotReady) as err:
        autostart.ensure_server(url, timeout=90)
    assert autostart.server_command(1)[1:5] == ["-m", "pinchtab", "server", "--autostarted"]
    assert "exited with code 3" in err.value.message and "/nonexistent/chrome" in err.value.message
    assert autostart.started.pop(url).returncode == 3
    (log,) = (tmp_path / "state" / "logs").glob("server-*.log")
    assert "exiting: no browser" in log.read_text() and "/nonexistent/chrome" in log.read_text()


def test_mcp_tool_calls_say_why_no_server_could_start(tmp_path: Path) -> None:
    env = isolated_env(tmp_path, PINCHTAB_PORT=str(free_port()), PINCHTAB_CHROME="/nonexistent/chrome")
    with open(tmp_path / "mcp-stderr.txt", "w+") as errlog, McpSession([], env=env, errlog=errlog) as session:
        text = session.error("pinchtab_health")
        assert text.startswith("Connection refused") and "/nonexistent/chrome" in text, text
        assert "/nonexistent/chrome" in session.error("pinchtab_navigate", {"url": "http://127.0.0.1:1/"})


def test_doctor_passes_here_with_a_headless_start(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # In this process (click's runner): its Chromium start is what is checked, not the command's own
    # start (tests/e2e/test_wheel.py runs the installed `pinchtab health` as a process).
    for key in [k for k in os.environ if k.startswith("PINCHTAB_")]:
        monkeypatch.delenv(key)
    for key, value in isolated_env(tmp_path, PINCHTAB_PORT=str(free_port())).items():
        monkeypatch.setenv(key, value)
    out = CliRunner().invoke(main, ["doctor", "--json"])
    data = json.loads(out.output)
    checks = {c["name"]: c for c in data["checks"]}
    assert out.exit_code == 0 and data["ok"], out.output
    assert "launched and closed" in checks["headless start"]["detail"]
