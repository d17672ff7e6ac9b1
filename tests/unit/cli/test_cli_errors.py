"""The CLI's errors: text on stderr, or one JSON object on stdout with --json; exit codes by kind
(pinchtab.cli_errors). A stub HTTP server plays a pinchtab server that answers errors."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from click.testing import CliRunner

from pinchtab.cli import main
from tests.conftest import free_port


class _Answers404(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = json.dumps({"error": "tab t9 not found", "code": "tab_not_found", "hint": "list tabs"}).encode()
        self.send_response(404)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def erring_server() -> Iterator[str]:
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), _Answers404)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


@pytest.fixture()
def env(tmp_path: Path) -> dict[str, str]:
    return {"PINCHTAB_CONFIG": str(tmp_path / "config.json")}


def run(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    result = CliRunner().invoke(main, args, env=env)
    return result.exit_code, result.stdout, result.stderr


def test_a_servers_error_exits_1_as_text_or_json(erring_server: str, env: dict[str, str]) -> None:
    code, out, err = run(["tabs", "--server", erring_server, "--no-start"], env)
    assert (code, out) == (1, "")
    assert err.strip() == "error: tab t9 not found (HTTP 404, tab_not_found)"
    code, out, err = run(["tabs", "--server", erring_server, "--no-start", "--json"], env)
    assert (code, err) == (1, "")
    assert json.loads(out) == {"error": "tab t9 not found", "code": "tab_not_found", "status": 404, "hint": "list tabs"}


def test_no_server_exits_3(env: dict[str, str]) -> None:
    url = f"http://127.0.0.1:{free_port()}"
    code, out, err = run(["tabs", "--server", url, "--no-start", "--json"], env)
    body = json.loads(out)
    assert code == 3 and err == ""
    assert (body["code"], body["status"]) == ("server_unreachable", 0) and url in body["error"]
    code, _, err = run(["snap", "--server", url, "--no-start"], env)
    assert code == 3 and "(no answer, server_unreachable)" in err


@pytest.mark.parametrize("args", [["nav", "--json"], ["no-such-command", "--json"], ["snap", "--json", "--no-such-flag"]])
def test_usage_errors_exit_2_and_are_json_with_json(args: list[str], env: dict[str, str]) -> None:
    code, out, err = run(args, env)
    assert code == 2 and err == ""
    body = json.loads(out)
    assert body["code"] == "usage" and body["status"] is None and body["error"]


def test_usage_errors_keep_clicks_usage_text_without_json(env: dict[str, str]) -> None:
    code, out, err = run(["nav"], env)
    assert code == 2 and out == ""
    assert "nav [OPTIONS] URL" in err and "Missing argument 'URL'" in err


def test_a_bad_config_is_a_local_error(env: dict[str, str]) -> None:
    Path(env["PINCHTAB_CONFIG"]).write_text('{"server": {"prot": 1}}')
    code, out, _ = run(["tabs", "--json", "--no-start"], env)
    assert code == 1
    assert json.loads(out) == {"error": f"unknown config key server.prot in config file {env['PINCHTAB_CONFIG']} "
                                        "(did you mean server.port?)", "code": "bad_config", "status": None}


def test_json_after_double_dash_is_an_argument_not_the_flag(env: dict[str, str]) -> None:
    code, out, err = run(["type", "--no-start", "--", "e1"], env)
    assert code == 2 and out == "" and "Missing argument" in err


@pytest.mark.parametrize("command", ["server", "bridge"])
def test_a_misspelt_key_stops_the_server_and_the_bridge(tmp_path: Path, command: str) -> None:
    config = tmp_path / "config.json"
    config.write_text('{"server": {"prot": 1234}}')
    # In this process (click's runner): the config is read before anything starts, and the real
    # `pinchtab server` and `pinchtab bridge` processes are the end-to-end tests' own.
    code, _, err = run([command, "--port", str(free_port())], {"PINCHTAB_CONFIG": str(config)})
    assert code == 1
    assert err.strip() == (f"error: unknown config key server.prot in config file {config} "
                                   "(did you mean server.port?) (bad_config)")
