"""A page's own download obeys security.downloadMaxBytes (issue 27, row 14: the cap applied only to
/download, and a page saved 60 MB)."""

from __future__ import annotations

import http.server
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest

from tests.hostile.conftest import DOWNLOAD_CAP as CAP
from tests.hostile.conftest import HostileBridge


class _Site(http.server.BaseHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass

    def do_GET(self) -> None:
        if self.path.startswith("/big.bin"):  # 3 MB, chunked, no length given: only its growth tells
            self.send_response(200)
            self.send_header("Content-Type", "application/octet-stream")
            self.send_header("Content-Disposition", "attachment; filename=big.bin")
            self.send_header("Transfer-Encoding", "chunked")
            self.end_headers()
            chunk = b"x" * 65536
            try:
                for _ in range(48):
                    self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                    time.sleep(0.02)
                self.wfile.write(b"0\r\n\r\n")
            except OSError:
                pass  # the browser cancelled
            return
        body = b'<title>dl</title><a id="dl" href="/big.bin" download>big</a>'
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def site() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Site)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


def test_a_page_download_past_the_cap_is_cancelled(site: str, hostile_bridge: HostileBridge) -> None:
    c, downloads = hostile_bridge.client, hostile_bridge.state / "downloads"
    tab = c.get("/tabs").json()["tabs"][0]["id"]  # the bridge's first tab: the page needs no new one
    assert c.post("/navigate", json={"url": f"{site}/", "tabId": tab}).status_code == 200
    assert c.post("/action", json={"tabId": tab, "kind": "click", "selector": "#dl"}).status_code == 200
    deadline = time.monotonic() + 30
    entry: dict[str, Any] = {}
    while time.monotonic() < deadline:
        listed = c.get("/downloads").json()["downloads"]
        entry = listed[-1] if listed else {}
        if entry.get("state") in ("canceled", "completed"):
            break
        time.sleep(0.1)
    assert entry.get("state") == "canceled" and "downloadMaxBytes" in entry.get("error", ""), entry
    time.sleep(0.5)
    saved = [f for f in downloads.iterdir() if f.is_file()] if downloads.exists() else []
    assert all(f.stat().st_size <= CAP * 2 for f in saved), [(f.name, f.stat().st_size) for f in saved]
    assert c.get("/health").status_code == 200
