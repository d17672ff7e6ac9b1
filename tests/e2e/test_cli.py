"""The CLI commands against a live bridge with real Chromium, checked by their effect on the page."""

from __future__ import annotations

import json

import httpx
import pytest
from click.testing import CliRunner

from pinchtab.cli import main
from tests.conftest import free_port, js


@pytest.fixture()
def cli(bridge: str):
    runner = CliRunner()

    def run(*args: str, ok: bool = True) -> str:
        result = runner.invoke(main, [*args], env={"PINCHTAB_SERVER": bridge}, catch_exceptions=False)
        if ok:
            assert result.exit_code == 0, f"{args}: {result.output}"
        return result.output

    return run


# Two tabs serve the module: the log-in flow's tab then shows the files' page, and the errors are
# asked of the frame test's tab before it gave any ref (a new tab costs more than most tests).
def test_login_flow_then_files_and_readable_output(cli, http: httpx.Client, pages: str, tmp_path) -> None:
    nav = json.loads(cli("nav", f"{pages}/login.html", "--new-tab", "--json"))
    tab = nav["tabId"]
    assert nav["title"] == "Login"
    snap = cli("snap", "-i", "-c", "--tab", tab)
    assert 'textbox "Email address"' in snap and 'button "Log in"' in snap
    found = json.loads(cli("find", "password field", "--tab", tab, "--json"))
    password = found["best_ref"]
    email = json.loads(cli("find", "email address input", "--tab", tab, "--json"))["best_ref"]
    login = json.loads(cli("find", "log in button", "--tab", tab, "--json"))["best_ref"]
    assert len({password, email, login}) == 3
    assert "filled" in cli("fill", email, "grace@example.com", "--tab", tab)
    cli("type", password, "hunter2", "--tab", tab)
    assert js(http, tab, "document.getElementById('password').value") == "hunter2"
    assert f"clicked {login}" in cli("click", login, "--tab", tab)
    assert "Signed in as grace@example.com" in cli("text", "--tab", tab)
    tabs = cli("tabs")
    assert tab in tabs and "Dashboard" in tabs
    files_and_readable_output(cli, tmp_path, pages, tab)
    cli("close", "--tab", tab)
    assert tab not in cli("tabs")


def test_errors_then_nav_loads_the_current_tab_and_frame_scopes(cli, pages: str) -> None:
    first = json.loads(cli("nav", f"{pages}/frames3.html", "--new-tab", "--json"))["tabId"]
    errors_exit_non_zero_with_the_servers_message(cli, first)
    before = cli("tabs").count("\n")
    second = json.loads(cli("nav", f"{pages}/iframe.html", "--json"))["tabId"]
    assert second == first and cli("tabs").count("\n") == before  # no trail of tabs
    scoped = json.loads(cli("frame", "#inner", "--tab", first, "--json"))
    assert scoped["scoped"] is True and scoped["frame"]["frameUrl"].endswith("/inner.html")
    assert "Inner frame" in cli("text", "--tab", first)
    cli("close", "--tab", first)


def files_and_readable_output(cli, tmp_path, pages: str, tab: str) -> None:
    assert json.loads(cli("nav", f"{pages}/table.html", "--tab", tab, "--json"))["tabId"] == tab
    png, pdf = tmp_path / "p.png", tmp_path / "p.pdf"
    assert "wrote" in cli("screenshot", "-o", str(png), "--tab", tab)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    cli("pdf", "-o", str(pdf), "--landscape", "--tab", tab)
    assert pdf.read_bytes()[:4] == b"%PDF"
    found = cli("find", "edit button", "--top-k", "3", "--explain", "--tab", tab)
    assert found.count('button "Edit"') == 3 and "lexical" in found and "best e" in found
    assert "[Ada Lovelace" in found and "[Grace Hopper" in found  # three alike: each one's row words
    assert json.loads(cli("eval", "document.title", "--tab", tab, "--json")) == {"result": "Team table"}
    assert "status=ok" in cli("health")


def errors_exit_non_zero_with_the_servers_message(cli, tab: str) -> None:
    """Asked of a tab that gave no ref yet."""
    out = cli("click", "e999", "--tab", tab, ok=False)
    assert "ref e999 not found - this tab has given no refs yet, and a ref belongs to the tab" in out and "404" in out
    out = cli("nav", "javascript:alert(1)", "--tab", tab, ok=False)
    assert "not allowed" in out


def test_server_down_is_a_clear_failure() -> None:
    # in process (a `python -m pinchtab` costs ~1 s of imports); the installed `pinchtab` script
    # answering as a real process is test_wheel's
    url = f"http://127.0.0.1:{free_port()}"
    result = CliRunner().invoke(main, ["tabs", "--no-start"], env={"PINCHTAB_SERVER": url})
    assert result.exit_code == 3  # no answer (pinchtab.cli_errors)
    assert "no pinchtab server answers" in result.stderr and "pinchtab server" in result.stderr
