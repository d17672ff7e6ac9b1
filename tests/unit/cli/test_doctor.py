"""``pinchtab doctor`` without launching a browser: each check's verdict and fix on a machine where
that thing is broken, the exit code and --json; ``pinchtab status``/``stop`` where nothing runs."""

from __future__ import annotations

import http.server
import json
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from pinchtab import doctor
from pinchtab.cdp import chrome_paths, launcher
from pinchtab.cli import main
from pinchtab.config import load_config
from tests.fixtures.harness import free_port


@pytest.fixture()
def env(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    for var in ("PINCHTAB_CHROME", "PINCHTAB_SERVER", "PINCHTAB_TOKEN"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setenv("PINCHTAB_CONFIG", str(tmp_path / "config.json"))
    monkeypatch.setenv("PINCHTAB_STATE_DIR", str(tmp_path / "state"))
    monkeypatch.setenv("PINCHTAB_PORT", str(free_port()))
    return tmp_path


def by_name(checks: list[doctor.Check]) -> dict[str, doctor.Check]:
    return {c.name: c for c in checks}


def test_all_pass_without_launch(env: Path) -> None:
    checks = by_name(doctor.run_checks(load_config, headless=False))
    assert set(checks) == {"python", "package", "config", "chromium", "state dir", "port"}
    assert all(c.ok for c in checks.values()), checks
    assert "pinchtab 0.1.0" in checks["package"].detail and "is free" in checks["port"].detail
    assert "Chromium" in checks["chromium"].detail or "Chrome" in checks["chromium"].detail  # its --version


def test_a_hidden_chromium_fails_with_the_install_command(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chrome_paths, "candidates", lambda: [])
    monkeypatch.setattr(chrome_paths, "shell_candidates", lambda: [])
    monkeypatch.setattr(launcher.shutil, "which", lambda name: None)
    monkeypatch.setattr(chrome_paths, "_os_release", lambda path="": {"ID": "fedora"})
    check = by_name(doctor.run_checks(load_config))["chromium"]
    assert not check.ok and "No Chrome or Chromium found" in check.detail
    assert "sudo dnf install chromium" in (check.fix or "") and "playwright install chromium" in (check.fix or "")
    assert "headless start" not in by_name(doctor.run_checks(load_config))


def test_a_wrong_binary_says_to_fix_the_setting(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINCHTAB_CHROME", str(env / "nope"))
    check = by_name(doctor.run_checks(load_config, headless=False))["chromium"]
    assert not check.ok and "nope" in check.detail and "PINCHTAB_CHROME" in (check.fix or "")


def test_a_broken_config_file_is_named(env: Path) -> None:
    (env / "config.json").write_text("{not json")
    checks = by_name(doctor.run_checks(load_config, headless=False))
    assert not checks["config"].ok and str(env / "config.json") in (checks["config"].fix or "")
    assert "state dir" not in checks  # read from the config it could not load


def test_an_unwritable_state_dir(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (env / "file").write_text("")
    monkeypatch.setenv("PINCHTAB_STATE_DIR", str(env / "file" / "state"))
    check = by_name(doctor.run_checks(load_config, headless=False))["state dir"]
    assert not check.ok and "PINCHTAB_STATE_DIR" in (check.fix or "")


@pytest.fixture()
def listener() -> Iterator[int]:
    """A port held by a service that is not HTTP (an SSH-like banner, then close): the doctor's
    /health request fails at once, where a silent listener would hold it for its 3 s timeout."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()

        def serve() -> None:
            while True:
                try:
                    conn, _ = s.accept()
                except OSError:  # closed at the end of the test
                    return
                with conn:
                    conn.sendall(b"SSH-2.0-OpenSSH_9.6\r\n")

        threading.Thread(target=serve, daemon=True).start()
        yield s.getsockname()[1]
        s.shutdown(socket.SHUT_RDWR)


def test_a_port_held_by_something_else_fails(env: Path, listener: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PINCHTAB_PORT", str(listener))
    check = by_name(doctor.run_checks(load_config, headless=False))["port"]
    assert not check.ok and "not pinchtab" in check.detail and "PINCHTAB_PORT" in (check.fix or "")


def _fake_pinchtab(body: dict) -> http.server.ThreadingHTTPServer:
    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            data = json.dumps(body).encode()
            self.send_response(200 if body.get("status") == "ok" else 503)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    # shutdown() waits for the serving loop to look at its flag: every 50 ms, not the default 0.5 s
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server


def test_a_port_held_by_pinchtab_passes(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = _fake_pinchtab({"status": "ok", "mode": "server", "instances": 1, "tabs": 0})
    try:
        monkeypatch.setenv("PINCHTAB_PORT", str(server.server_address[1]))
        check = by_name(doctor.run_checks(load_config, headless=False))["port"]
        assert check.ok and "held by a pinchtab server" in check.detail
    finally:
        server.shutdown()


def test_cli_exit_codes_and_json(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    runner = CliRunner()
    ok = runner.invoke(main, ["doctor", "--no-launch", "--json"])
    assert ok.exit_code == 0, ok.output
    data = json.loads(ok.output)
    assert data["ok"] is True and {c["name"] for c in data["checks"]} >= {"python", "chromium", "port"}
    monkeypatch.setenv("PINCHTAB_CHROME", str(env / "nope"))
    bad = runner.invoke(main, ["doctor", "--no-launch"])
    assert bad.exit_code == 1 and "FAIL  chromium" in bad.output and "fix: " in bad.output
    assert "1 check(s) failed: chromium" in bad.output


def test_status_and_stop_when_nothing_runs(env: Path) -> None:
    runner = CliRunner()
    status = runner.invoke(main, ["status"])
    assert status.exit_code == 1 and "no pinchtab server answers" in status.output
    data = json.loads(runner.invoke(main, ["status", "--json"]).output)
    assert data["running"] is False
    stop = runner.invoke(main, ["stop", "--json"])
    assert stop.exit_code == 1 and json.loads(stop.output)["stopped"] is False


def test_status_of_a_server_that_is_down_and_stop_refuses_a_foreign_pid(env: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    server = _fake_pinchtab({"status": "down", "mode": "server", "pid": 1, "reason": "the default instance x is error: boom"})
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}"
        out = CliRunner().invoke(main, ["status", "--server", url])
        assert out.exit_code == 1 and "DOWN: the default instance x is error: boom" in out.output
        stop = CliRunner().invoke(main, ["stop", "--server", url])  # pid 1 is init, not a pinchtab
        assert stop.exit_code == 1 and "not a pinchtab process" in stop.output
    finally:
        server.shutdown()
