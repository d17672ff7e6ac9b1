"""What a person watches, through a server (the session bridge attached as its one instance):
/screencast (a websocket relayed to the bridge), the take-over input a viewer sends through /action,
/screencast/tabs, /record (HTTP and CLI), screenshot?annotate=true, /annotate, and the MCP
screenshot's annotate.

The server is the app ``pinchtab server`` serves, run in a thread of this process
(tests.conftest.ServerThread): a ``pinchtab server`` process costs ~2 s of CPU to start, and
test_server and test_server_in_process run the real one. Its instance is the session bridge
(screencast allowed), attached: a default instance of its own started another Chromium; requests
without a tab go to the oldest running instance, this one."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace

import httpx
import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from tests.conftest import ServerThread
from tests.e2e.test_server import wait_until
from tests.fixtures.harness import free_port

# A page that repaints every 50 ms, so a screencast sends frames continuously.
ANIMATE = "window.__animation = setInterval(() => { document.body.style.background = ['#fdd', '#ddf'][Math.floor(Date.now() / 50) % 2] }, 50); 1"
CLICKS = "window.__clicks = []; addEventListener('click', e => __clicks.push([e.clientX, e.clientY, e.shiftKey])); 1"


@pytest.fixture(scope="module")
def server(bridge: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[SimpleNamespace]:
    """The server (``url``) and a client of it (``http``), the session bridge attached."""
    from pinchtab.config import load_config
    from pinchtab.server.app import create_app

    config = load_config({"server": {"stateDir": str(tmp_path_factory.mktemp("screencast")), "defaultInstance": False},
                          "security": {"attach": {"enabled": True}, "allowEvaluate": True, "allowCookies": True,
                                       "allowScreencast": True}}, environ={})
    with ServerThread(create_app(config), free_port()) as srv, \
            httpx.Client(base_url=srv.url, timeout=60, trust_env=False) as http:
        res = http.post("/instances/attach-bridge", json={"baseUrl": bridge})
        assert res.status_code == 201, res.text
        yield SimpleNamespace(url=srv.url, http=http)


def _new_tab(server: SimpleNamespace, url: str) -> Iterator[str]:
    res = server.http.post("/navigate", json={"url": url, "newTab": True})
    assert res.status_code == 200, res.text
    yield str(res.json()["tabId"])
    server.http.post(f"/tabs/{res.json()['tabId']}/close")  # a tab of the session bridge


@pytest.fixture(scope="module")
def tab(server: SimpleNamespace, pages: str) -> Iterator[str]:
    for tab_id in _new_tab(server, f"{pages}/buttons.html"):
        assert server.http.post("/evaluate", json={"tabId": tab_id, "expression": CLICKS}).status_code == 200
        yield tab_id


@pytest.fixture()
def animating(server: SimpleNamespace, tab: str) -> Iterator[None]:
    """The module's tab repaints every 50 ms during the test (a page that repaints costs Chromium
    ~0.1 s of CPU a second: only the tests that need frames have it)."""
    assert server.http.post("/evaluate", json={"tabId": tab, "expression": ANIMATE}).status_code == 200
    yield
    assert server.http.post("/evaluate", json={"tabId": tab, "expression": "clearInterval(__animation); 1"}).status_code == 200


@pytest.fixture(scope="module")
def form(server: SimpleNamespace, pages: str) -> Iterator[str]:
    """A second tab, on form.html, for the annotation tests (a new tab costs a renderer; a
    navigation of this one does not)."""
    yield from _new_tab(server, f"{pages}/form.html")


async def frames(url: str, count: int) -> list[bytes]:
    async with connect(url, open_timeout=30) as ws:
        return [await asyncio.wait_for(ws.recv(), 30) for _ in range(count)]  # type: ignore[misc]


def test_frames_of_a_tab_through_the_server_and_by_instance(server: SimpleNamespace, tab: str, animating: None) -> None:
    ws = server.url.replace("http", "ws")
    got = asyncio.run(frames(f"{ws}/screencast?tabId={tab}&fps=10&quality=50&maxWidth=400", 3))
    assert all(isinstance(f, bytes) and f[:3] == b"\xff\xd8\xff" for f in got), "JPEG frames"
    (instance,) = [i["id"] for i in server.http.get("/instances").json()["instances"] if i["status"] == "running"]
    for path in (f"/instances/{instance}/screencast", f"/instances/{instance}/proxy/screencast"):
        assert asyncio.run(frames(f"{ws}{path}?tabId={tab}&fps=10", 2))[0][:3] == b"\xff\xd8\xff"
    listed = server.http.get("/screencast/tabs").json()
    assert any(t["id"] == tab and t["title"] == "Buttons" for t in listed), listed
    plain = server.http.get("/screencast")
    assert plain.status_code == 426 and plain.json()["code"] == "websocket_required"


def test_an_unknown_tab_is_refused_before_the_upgrade(server: SimpleNamespace) -> None:
    ws = server.url.replace("http", "ws")
    with pytest.raises(InvalidStatus) as refused:
        asyncio.run(frames(f"{ws}/screencast?tabId=NOPE", 1))
    assert refused.value.response.status_code == 404


def test_take_over_input_lands_where_the_frame_shows_it(server: SimpleNamespace, tab: str) -> None:
    size = server.http.post("/evaluate", json={"tabId": tab, "expression": "[innerWidth, innerHeight]"}).json()["result"]
    # A click at frame pixel (200, 100) of a frame twice the viewport's size is CSS pixel (100, 50).
    res = server.http.post("/action", json={"tabId": tab, "kind": "click", "x": 200, "y": 100, "frameW": size[0] * 2,
                                            "frameH": size[1] * 2, "modifiers": 8})
    assert res.status_code == 200, res.text
    clicks = server.http.post("/evaluate", json={"tabId": tab, "expression": "__clicks"}).json()["result"]
    assert clicks[-1] == [100, 50, True]


def _record(server: SimpleNamespace, tab: str, fmt: str) -> dict:
    res = server.http.post("/record/start", json={"tabId": tab, "format": fmt, "fps": 10, "quality": 50, "scale": 0.5})
    assert res.status_code == 200, res.text
    assert res.json() == {"status": "recording", "format": fmt, "fps": 10, "quality": 50, "tabId": tab}
    again = server.http.post("/record/start", json={"tabId": tab})
    assert again.status_code == 409, "one recording per bridge"
    wait_until(lambda: server.http.get("/record/status").json()["frames"] >= 5, 30, "five frames", 0.05)
    stop = server.http.post("/record/stop", json={})
    assert stop.status_code == 200 and stop.json()["status"] == "encoding", stop.text
    wait_until(lambda: server.http.get("/record/status").json()["state"] == "finished", 60, "the encoding", 0.05)
    status = server.http.get("/record/status").json()
    assert status["outputPath"] == stop.json()["path"] and "error" not in status, status
    return status


def test_record_a_gif(server: SimpleNamespace, tab: str, animating: None) -> None:
    from PIL import Image

    assert server.http.post("/record/stop", json={}).status_code == 400, "nothing to stop"
    status = _record(server, tab, "gif")
    with Image.open(status["outputPath"]) as gif:
        assert gif.format == "GIF" and gif.n_frames >= 2
    assert server.http.get("/record/file", params={"raw": "true"}).content == Path(status["outputPath"]).read_bytes()
    res = server.http.post("/record/start", json={"tabId": tab, "format": "gif"})
    assert res.status_code == 200
    discarded = server.http.post("/record/stop", json={"discard": True}).json()
    assert discarded["status"] == "discarded"
    assert server.http.get("/record/status").json()["state"] == "idle"


@pytest.mark.skipif(shutil.which("ffmpeg") is None, reason="ffmpeg is not on PATH")
def test_record_webm_through_ffmpeg(server: SimpleNamespace, tab: str, animating: None) -> None:
    status = _record(server, tab, "webm")
    assert Path(status["outputPath"]).read_bytes()[:4] == b"\x1a\x45\xdf\xa3"  # Matroska/WebM


def test_record_from_the_cli(server: SimpleNamespace, tab: str, animating: None, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from pinchtab.cli import main

    runner = CliRunner()
    env = {"PINCHTAB_SERVER": server.url}
    out = tmp_path / "cli.gif"
    started = runner.invoke(main, ["record", "start", str(out), "--fps", "10", "--tab", tab], env=env)
    assert started.exit_code == 0, started.output
    wait_until(lambda: server.http.get("/record/status").json()["frames"] >= 3, 30, "three frames", 0.05)
    stopped = runner.invoke(main, ["record", "stop"], env=env)
    assert stopped.exit_code == 0, stopped.output
    assert out.read_bytes()[:6] == b"GIF89a"


def test_screenshot_annotate_draws_the_refs_into_the_image(server: SimpleNamespace, form: str) -> None:
    import base64
    import io

    from PIL import Image

    plain = server.http.get("/screenshot", params={"tabId": form, "raw": "true"}).content
    shot = server.http.get("/screenshot", params={"tabId": form, "annotate": "true"}).json()
    assert shot["format"] == "png" and shot["annotations"], shot.keys()
    first = shot["annotations"][0]
    assert first["ref"] == "e0" and first["box"]["w"] > 0 and first["role"]
    drawn = Image.open(io.BytesIO(base64.b64decode(shot["base64"]))).convert("RGB")
    before = Image.open(io.BytesIO(plain)).convert("RGB")
    box = first["box"]
    edge = (round(box["x"] + box["w"] / 2), round(box["y"]))  # the top edge of the box, where the outline is
    assert drawn.getpixel(edge) == (232, 23, 138) != before.getpixel(edge)
    clicked = server.http.post("/action", json={"tabId": form, "kind": "click", "ref": first["ref"]})
    assert clicked.status_code == 200, "the refs are the tab's refs"
    inside = server.http.get("/screenshot", params={"tabId": form, "annotate": "true", "selector": "fieldset"}).json()
    assert inside["annotations"] and all(a["box"]["x"] >= 0 and a["box"]["y"] < 60 for a in inside["annotations"])


def test_annotate_overlay_copies_a_reference_and_clears(server: SimpleNamespace, form: str, pages: str) -> None:
    res = server.http.post(f"/tabs/{form}/navigate", json={"url": f"{pages}/form.html"})  # a new document
    assert res.status_code == 200, res.text
    shown = server.http.get("/annotate", params={"tabId": form}).json()
    assert shown["annotated"] == len(shown["annotations"]) > 0
    ref = shown["annotations"][0]["ref"]
    copied = server.http.post("/evaluate", json={"tabId": form, "expression": (
        "(() => { const root = document.getElementById('__pinchtab_annotations_interactive__');"
        f" [...root.children].find(d => d.textContent === '{ref}').click(); return window.__ptLastCopied }})()")})
    text = copied.json()["result"]
    assert f"Element: {ref}" in text and "CSS: " in text and "XPath: /html[1]" in text, text
    assert server.http.get("/annotate", params={"tabId": form, "selector": "#nothing-here"}).status_code == 400
    assert server.http.get("/annotate", params={"tabId": form, "clear": "true"}).json()["cleared"] is True
    gone = server.http.post("/evaluate", json={"tabId": form, "expression":
                            "document.getElementById('__pinchtab_annotations_interactive__') === null"})
    assert gone.json()["result"] is True


def test_mcp_screenshot_with_annotate(server: SimpleNamespace, tab: str) -> None:
    from pinchtab.client import AsyncClient
    from pinchtab.mcp.tools.content import TOOLS

    screenshot = next(t for t in TOOLS if t.name == "pinchtab_screenshot")

    async def call() -> tuple:
        async with AsyncClient(server.url) as client:
            return await screenshot.run(client, {"tabId": tab, "quality": None, "annotate": True})  # type: ignore[return-value]

    image, listed = asyncio.run(call())
    assert image.mime_type == "image/png" and listed["annotations"][0]["ref"] == "e0"
