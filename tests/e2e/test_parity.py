"""PinchTab's secrets, browser parameter, retained bodies, network streams and tab auto-close,
against one bridge for the module. The tests that need a tab share one, each loading its page
first; the auto-close test opens the tab it sees closed."""

from __future__ import annotations

import base64
import http.server
import json
import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.conftest import ServerThread, open_page, open_tab
from tests.fixtures.harness import free_port

SECRET = "hunter2-parity-secret"


@pytest.fixture(scope="module")
def parity(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, Any, Path]]:
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    state = tmp_path_factory.mktemp("parity-state")
    config = load_config({"server": {"stateDir": str(state)}, "security": {"allowEvaluate": True,
                                                                        "allowedDomains": ["127.0.0.1", "localhost"]},
                          "observe": {"retainBodies": True}}, environ={"PINCHTAB_SECRET_PW": SECRET})
    app = create_app(config)
    with ServerThread(app, free_port()) as server, httpx.Client(base_url=server.url, timeout=60) as client:
        yield client, app, state


@pytest.fixture()
def client(parity: tuple[httpx.Client, Any, Path]) -> httpx.Client:
    return parity[0]


@pytest.fixture(scope="module")
def tab(parity: tuple[httpx.Client, Any, Path]) -> Iterator[str]:
    """The module's tab on its bridge."""
    yield from open_tab(parity[0])


def new_tab_at(c: httpx.Client, url: str) -> str:
    res = c.post("/navigate", json={"url": url})
    assert res.status_code == 200, res.text
    return str(res.json()["tabId"])


def test_browser_parameter(client: httpx.Client, tab: str, pages: str) -> None:
    open_page(client, tab, f"{pages}/index.html")
    for value in ("", "chrome", "chromium"):
        assert client.get("/text", params={"tabId": tab, "browser": value}).status_code == 200
    unknown = client.get("/text", params={"tabId": tab, "browser": "nonexistent_xyz"})
    assert unknown.status_code == 400 and unknown.json()["code"] == "unknown_browser"
    other = client.post("/action", json={"tabId": tab, "kind": "press", "key": "Escape", "browser": "cloak"})
    assert other.status_code == 400 and other.json()["code"] == "browser_not_installed"
    assert "not installed" in other.json()["error"]


def test_allowed_domains_refuse_other_hosts(client: httpx.Client) -> None:
    tabs = len(client.get("/tabs").json()["tabs"])
    blocked = client.post("/navigate", json={"url": "http://blocked.invalid/"})
    assert blocked.status_code == 403 and blocked.json()["code"] == "idpi_domain_blocked"
    assert "security.allowedDomains" in blocked.json()["error"]
    opened = client.post("/tab", json={"action": "new", "url": "https://other.invalid/"})
    assert opened.status_code == 403 and len(client.get("/tabs").json()["tabs"]) == tabs


def test_secret_is_used_by_name_and_never_shown(client: httpx.Client, tab: str, pages: str,
                                                caplog: pytest.LogCaptureFixture) -> None:
    open_page(client, tab, f"{pages}/login.html")
    filled = client.post("/action", json={"tabId": tab, "kind": "fill", "selector": "#email", "secret": "pw"})
    assert filled.status_code == 200 and SECRET not in filled.text
    typed = client.post("/action", json={"tabId": tab, "kind": "type", "selector": "#password", "secret": "pw"})
    assert typed.status_code == 200
    # The page holds the value; every answer that would show it shows its name instead.
    same = client.post("/evaluate", json={"tabId": tab, "expression":
                                          f"document.querySelector('#email').value === {json.dumps(SECRET)}"})
    assert same.json()["result"] is True
    shown = client.post("/evaluate", json={"tabId": tab, "expression": "document.querySelector('#email').value"})
    assert shown.json()["result"] == "[secret:pw]"
    snap = client.get("/snapshot", params={"tabId": tab, "format": "compact"}).text
    assert "[secret:pw]" in snap and SECRET not in snap
    missing = client.post("/action", json={"tabId": tab, "kind": "fill", "selector": "#email", "secret": "nope"})
    assert missing.status_code == 400 and missing.json()["code"] == "unknown_secret" and "pw" in missing.text
    with caplog.at_level(logging.INFO):
        logging.getLogger("pinchtab.test").info("typed %s into the form", SECRET)
    assert "[secret:pw]" in caplog.text and SECRET not in caplog.text


def test_retained_body(client: httpx.Client, tab: str, pages: str) -> None:
    open_page(client, tab, f"{pages}/observe.html")
    assert client.post("/wait", json={"tabId": tab, "text": "fetched ok"}).status_code == 200
    items = client.get("/network", params={"tabId": tab, "filter": "data.json"}).json()["items"]
    rid = items[0]["requestId"]
    detail = client.get(f"/network/{rid}", params={"tabId": tab, "body": "true",
                                                   "bodyMode": "retained-preferred", "timeoutMs": 5000}).json()
    assert detail["bodyRetained"] is True and detail["bodySource"] == "retained"
    assert "fetched ok" in detail["responseBody"] and not detail.get("bodyPending")
    live = client.get(f"/network/{rid}", params={"tabId": tab, "body": "true", "bodyMode": "live-only"}).json()
    assert live["bodySource"] == "live" and "fetched ok" in live["responseBody"]


def _read_stream(c: httpx.Client, path: str, params: dict[str, Any], opened: threading.Event,
                 out: list[str]) -> None:
    with c.stream("GET", path, params=params, timeout=30) as res:
        opened.set()
        out.append(res.read().decode())


def _stream_during(c: httpx.Client, path: str, params: dict[str, Any], action: Any) -> str:
    out: list[str] = []
    opened = threading.Event()
    reader = threading.Thread(target=_read_stream, args=(c, path, params, opened, out))
    reader.start()
    assert opened.wait(30)
    action()
    reader.join(30)
    assert out, "the stream did not end"
    return out[0]


def test_network_stream_and_export_stream(parity: tuple[httpx.Client, Any, Path], tab: str, pages: str) -> None:
    client, _, state = parity
    open_page(client, tab, "about:blank")

    def load() -> None:
        open_tab_in = client.post("/navigate", json={"tabId": tab, "url": f"{pages}/observe.html"})
        assert open_tab_in.status_code == 200

    text = _stream_during(client, "/network/stream", {"tabId": tab, "filter": "data.json", "maxEvents": 1,
                                                      "durationMs": 20000}, load)
    assert text.startswith("event: network\ndata: ") and "data.json" in text
    text = _stream_during(client, f"/tabs/{tab}/network/export/stream",
                          {"filter": "data.json", "maxEvents": 1, "path": "out.ndjson", "format": "ndjson",
                           "body": "true", "durationMs": 20000}, load)
    assert "event: export" in text and "event: done" in text
    lines = (state / "exports" / "out.ndjson").read_text().splitlines()
    assert len(lines) == 1 and "fetched ok" in json.loads(lines[0])["response"]["content"]["text"]
    assert client.get("/network/export/stream", params={"tabId": tab}).status_code == 400  # path is required
    saved = client.get("/network/export", params={"tabId": tab, "output": "file", "path": "all.har"}).json()
    assert saved["path"] == str(state / "exports" / "all.har") and saved["entries"] >= 2 and saved["format"] == "har"
    assert len(json.loads(Path(saved["path"]).read_text())["log"]["entries"]) == saved["entries"]


def test_close_idle_closes_a_used_tab(parity: tuple[httpx.Client, Any, Path], pages: str) -> None:
    client, app, _ = parity
    idle = app.state.browser.idle
    idle.enabled, idle.delay = True, 0.3  # instanceDefaults.tabPolicy close_idle, briefly
    try:
        tab = new_tab_at(client, f"{pages}/index.html")
        assert client.get("/text", params={"tabId": tab}).status_code == 200
        deadline = time.monotonic() + 20
        while tab in {t["id"] for t in client.get("/tabs").json()["tabs"]}:
            assert time.monotonic() < deadline, "the tab was not closed"
            time.sleep(0.05)
    finally:
        idle.enabled = False


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    from tests.fixtures.harness import PAGES, serve

    base, httpd = serve(PAGES.parent / "scrape-site")
    yield base
    httpd.shutdown()


def test_scrape_http_first_browser_for_the_thin_page(client: httpx.Client, site: str) -> None:
    report = client.post("/scrape", json={"url": f"{site}/index.html", "timeoutSeconds": 20}).json()
    assert report["schemaVersion"] == "1.0" and report["site"]["sitemapFound"] is False
    pages = {p["url"].removeprefix(site): p for p in report["pages"]}
    assert set(pages) == {"/index.html", "/docs/spades.html", "/docs/rakes.html", "/app.html", "/private.html"}
    assert pages["/private.html"]["error"] == "disallowed by robots.txt"  # and no browser either
    assert pages["/app.html"]["source"] == "browser" and pages["/app.html"]["browserReasons"] == ["thin-content"]
    assert "Season planner" in pages["/app.html"]["markdown"]
    home = pages["/index.html"]
    assert home["source"] == "http" and home["markdown"].startswith("# Garden tools")
    assert home["meta"]["description"] and home["schema"][0]["@type"] == "WebSite" and home["externalLinks"] == 1
    assert {g["pattern"] for g in report["pageGroups"]} == {"/*", "/docs/*"}
    assert report["summary"]["browserPages"] == 1 and report["summary"]["httpPages"] == 4


def test_scrape_preview_and_expand(client: httpx.Client, site: str) -> None:
    preview = client.post("/scrape", json={"url": f"{site}/index.html", "preview": True,
                                           "excludePatterns": ["private"]}).json()
    assert all("markdown" not in p and p["source"] == "http" for p in preview["pages"])
    app = next(p for p in preview["pages"] if p["url"].endswith("/app.html"))
    assert app["browserRecommended"] is True and "Loading..." in app["snippet"]
    assert len(preview["pages"]) == 4 and preview["summary"]["browserPages"] == 0
    expanded = client.post("/scrape", json={"url": site, "only": [f"{site}/docs/rakes.html"]}).json()
    assert [p["url"] for p in expanded["pages"]] == [f"{site}/docs/rakes.html"]
    assert "## Choosing one" in expanded["pages"][0]["markdown"]
    refused = client.post("/scrape", json={"url": "https://elsewhere.invalid/"})
    assert refused.status_code == 403 and refused.json()["code"] == "idpi_domain_blocked"


def test_cli_scrape_takes_pinchtabs_flags_and_writes_markdown(client: httpx.Client, site: str, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pinchtab.cli import main

    cli, server = CliRunner(), ["--server", str(client.base_url).rstrip("/"), "--no-start"]
    preview = cli.invoke(main, ["scrape", f"{site}/index.html", "--preview", "--exclude", "private", "--include",
                                r"\.html$", *server])
    assert preview.exit_code == 0, preview.output
    assert preview.output.startswith("Preview: 4 page(s) discovered") and "needs browser: thin-content" in preview.output
    rakes = f"{site}/docs/rakes.html"
    out = tmp_path / "scrape"
    written = cli.invoke(main, ["scrape", site, "--only", rakes, "--timeout", "20", "--format", "md",
                                "--output-dir", str(out), *server])
    assert written.exit_code == 0, written.output
    assert [p["url"] for p in json.loads((out / "report.json").read_text())["pages"]] == [rakes]
    digest = (out / "report.md").read_text()
    assert digest.startswith("# Scrape Report") and f"{rakes} · source: http · status: 200" in digest
    assert "## Choosing one" in digest


class _BasicAuth(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802
        ok = self.headers.get("Authorization") == "Basic " + base64.b64encode(b"ann:s3cret").decode()
        body = b"<title>in</title><p>welcome ann</p>" if ok else b"<title>out</title>"
        self.send_response(200 if ok else 401)
        if not ok:
            self.send_header("WWW-Authenticate", 'Basic realm="test"')
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


def test_credentials_answer_http_authentication(client: httpx.Client, tab: str) -> None:
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _BasicAuth)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        set_ = client.post("/emulation/credentials", json={"tabId": tab, "username": "ann", "password": "s3cret"})
        assert set_.json()["status"] == "applied" and "s3cret" not in set_.text
        page = client.post("/navigate", json={"tabId": tab, "url": f"http://127.0.0.1:{httpd.server_address[1]}/"})
        assert page.json()["title"] == "in"
        cleared = client.post(f"/tabs/{tab}/emulation/credentials", json={"username": ""})
        assert cleared.json()["status"] == "cleared"
    finally:
        httpd.shutdown()
