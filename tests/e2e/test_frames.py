"""Iframes of every origin against a real Chromium: same-origin, cross-origin in the same process
(another port of 127.0.0.1), out of process (another site: `localhost`), and nested; their content
in snapshots under the iframe node, their refs usable by every action and by find. The tests share
one tab, and the tests of one origin one load of the payment page (a page with three frames costs
~1 s of CPU to load): the next test gets a fresh payment frame, put in by script, and the page's
frame scope."""

from __future__ import annotations

import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.conftest import js, open_page, open_tab, snap
from tests.fixtures.harness import PAGES, serve


tab = pytest.fixture(scope="module", name="tab")(open_tab)


@pytest.fixture(scope="module")
def other() -> Iterator[str]:
    """The fixture pages again on a second port: another origin of the same site (127.0.0.1)."""
    url, server = serve(PAGES)
    yield url
    server.shutdown()


def other_site(url: str) -> str:
    """The same server as another site (`localhost`): Chromium runs its frames out of process."""
    return url.replace("127.0.0.1", "localhost")


def refs_by_name(s: dict[str, Any], role: str, name: str) -> list[str]:
    return [n["ref"] for n in s["nodes"] if n["role"] == role and n["name"] == name]


def node(s: dict[str, Any], role: str, name: str, nth: int = 0) -> dict[str, Any]:
    return [n for n in s["nodes"] if n["role"] == role and n["name"] == name][nth]


def act(http: httpx.Client, tab: str, **body: Any) -> dict[str, Any]:
    res = http.post(f"/tabs/{tab}/action", json=body)
    assert res.status_code == 200, res.text
    return res.json()


def frame(http: httpx.Client, tab: str, target: str) -> httpx.Response:
    return http.post(f"/tabs/{tab}/frame", json={"target": target})


def settled(http: httpx.Client, tab: str, role: str, name: str, **params: Any) -> dict[str, Any]:
    """A snapshot once the frames' content has loaded (frames load after the page's load event
    when a script sets their src)."""
    deadline = time.monotonic() + 10
    while True:
        s = snap(http, tab, **params)
        if refs_by_name(s, role, name) or time.monotonic() > deadline:
            return s
        time.sleep(0.1)


# frames3.html's payment frame as the page puts it in, new: a frame a test filled, paid, navigated or
# removed is replaced, and the page's status cleared
FRESH_PAYMENT_FRAME = """new Promise(resolve => {
  document.getElementById('cross')?.remove();
  const f = Object.assign(document.createElement('iframe'), {id: 'cross', name: 'pay', title: 'Payment'});
  f.style.cssText = 'width:500px;height:300px';
  f.onload = resolve;
  f.src = %r;
  document.getElementById('status').before(f);
  document.getElementById('status').textContent = '';
})"""


def payment_page(http: httpx.Client, tab: str, pages: str, origin: str) -> dict[str, Any]:
    """frames3.html with a fresh payment frame from ``origin``, in the page's scope; its snapshot once
    the frame loaded. The page is loaded when the tab is not on it already."""
    assert frame(http, tab, "main").status_code == 200
    url = f"{pages}/frames3.html?x={origin}"
    if js(http, tab, "location.href") == url:
        js(http, tab, FRESH_PAYMENT_FRAME % f"{origin}/pay.html")
    else:
        open_page(http, tab, url)
    return settled(http, tab, "textbox", "Card number")


def pay_by_ref(http: httpx.Client, tab: str, s: dict[str, Any]) -> None:
    act(http, tab, kind="fill", ref=node(s, "textbox", "Card number")["ref"], value="4111 1111")
    act(http, tab, kind="check", ref=node(s, "checkbox", "Save card")["ref"])
    act(http, tab, kind="select", ref=node(s, "combobox", "Country", -1)["ref"], value="uk")
    act(http, tab, kind="click", ref=node(s, "button", "Pay now")["ref"])
    wait_paid(http, tab, "4111 1111")


def wait_paid(http: httpx.Client, tab: str, card: str) -> None:
    """The frame's form posts the card number to the page when submitted."""
    deadline = time.monotonic() + 5
    while js(http, tab, "document.getElementById('status').textContent") != f"paid {card}":
        assert time.monotonic() < deadline, "the frame's form was not submitted"
        time.sleep(0.05)


# scope="module": pytest runs the tests of one origin one after another (one page load each)
@pytest.mark.parametrize("kind", ["same-origin", "same-site", "other-site"], scope="module")
def test_frame_content_of_every_origin_is_in_the_snapshot_and_its_refs_act(
        http: httpx.Client, tab: str, pages: str, other: str, kind: str) -> None:
    origin = {"same-origin": pages, "same-site": other, "other-site": other_site(other)}[kind]
    s = payment_page(http, tab, pages, origin)
    owner = node(s, "Iframe", "Payment")
    assert owner["childFrameUrl"] == f"{origin}/pay.html" and owner["childFrameName"] == "pay"
    assert owner["childFrameId"]
    card = node(s, "textbox", "Card number")
    assert card["depth"] == owner["depth"] + 2  # in the frame's form, under the iframe node
    i = s["nodes"].index(owner)
    assert card in s["nodes"][i + 1:i + 6]
    # same-origin frames are there too, each under its own owner
    assert node(s, "Iframe", "Sign up")["childFrameUrl"] == f"{pages}/form.html"
    assert node(s, "Iframe", "Log in")["childFrameName"] == "login"
    assert node(s, "textbox", "Password")
    pay_by_ref(http, tab, s)
    after = snap(http, tab)
    assert node(after, "textbox", "Card number")["ref"] == card["ref"]
    assert node(after, "checkbox", "Save card")["checked"] is True
    assert any(n["name"] == "PAID 4111 1111" for n in after["nodes"])
    text = http.get(f"/tabs/{tab}/snapshot", params={"format": "text"}).text
    assert f'{owner["ref"]} Iframe "Payment" url="{origin}/pay.html"' in text


@pytest.mark.parametrize("kind", ["other-site"], scope="module")
def test_find_and_keyboard_reach_a_frame_of_another_site(http: httpx.Client, tab: str, pages: str, other: str,
                                                         kind: str) -> None:
    payment_page(http, tab, pages, other_site(other))
    found = http.post(f"/tabs/{tab}/find", json={"query": "card number field"}).json()
    assert found["matches"][0]["name"] == "Card number", found
    act(http, tab, kind="type", ref=found["best_ref"], text="4242")
    act(http, tab, kind="press", key="Enter")  # submits the frame's form
    wait_paid(http, tab, "4242")


@pytest.mark.parametrize("kind", ["same-origin", "other-site"], scope="module")
def test_a_frame_that_navigates_or_goes_away_makes_its_refs_stale(
        http: httpx.Client, tab: str, pages: str, other: str, kind: str) -> None:
    origin = pages if kind == "same-origin" else other_site(other)
    card = node(payment_page(http, tab, pages, origin), "textbox", "Card number")["ref"]
    js(http, tab, f"new Promise(r => {{ const f = document.getElementById('cross'); f.onload = r; f.src = '{origin}/pay.html?again'; }})")
    res = http.post(f"/tabs/{tab}/action", json={"kind": "fill", "ref": card, "value": "1"})
    assert res.status_code == 404 and res.json()["code"] == "stale_ref", res.text
    fresh = settled(http, tab, "textbox", "Card number")
    new = node(fresh, "textbox", "Card number")["ref"]
    assert new != card
    act(http, tab, kind="fill", ref=new, value="5")
    js(http, tab, "document.getElementById('cross').remove()")
    res = http.post(f"/tabs/{tab}/action", json={"kind": "fill", "ref": new, "value": "1"})
    assert res.status_code == 404 and res.json()["code"] == "stale_ref", res.text


@pytest.mark.parametrize("kind", ["same-origin", "other-site"], scope="module")
def test_frame_scope_for_selectors_snapshot_and_text(http: httpx.Client, tab: str, pages: str, other: str, kind: str) -> None:
    origin = pages if kind == "same-origin" else other_site(other)
    s = payment_page(http, tab, pages, origin)
    assert http.get(f"/tabs/{tab}/frame").json() == {"tabId": tab, "scoped": False, "target": "main", "current": "main"}
    missing = http.post(f"/tabs/{tab}/action", json={"kind": "fill", "selector": "#card", "value": "1"})
    assert missing.status_code == 404  # selectors stay in the page until a frame is scoped
    res = frame(http, tab, "#cross")
    assert res.status_code == 200, res.text
    body = res.json()
    assert body["scoped"] is True and body["frame"]["frameUrl"] == f"{origin}/pay.html"
    assert body["frame"]["frameName"] == "pay" and body["target"] == node(s, "Iframe", "Payment")["childFrameId"]
    assert act(http, tab, kind="scrollintoview", selector="#pay")["result"] == {"scrolledIntoView": True}
    waited = http.post(f"/tabs/{tab}/wait", json={"selector": "#card", "text": "Card payment", "timeout": 2000}).json()
    assert waited["present"] is True
    act(http, tab, kind="fill", selector="#card", value="77")
    act(http, tab, kind="check", selector="label:Save card")
    act(http, tab, kind="click", selector="text:Pay now")
    wait_paid(http, tab, "77")
    scoped = snap(http, tab, filter="interactive")
    assert [n["name"] for n in scoped["nodes"]] == ["Card number", "Save card", "Country", "Pay now"]
    assert node(scoped, "textbox", "Card number")["ref"] == node(s, "textbox", "Card number")["ref"]
    text = http.get(f"/tabs/{tab}/text").json()
    assert "PAID 77" in text["text"] and text["url"] == f"{origin}/pay.html"
    assert frame(http, tab, "main").json()["scoped"] is False
    assert "PAID" not in http.get(f"/tabs/{tab}/text").json()["text"]
    fid = node(s, "Iframe", "Payment")["childFrameId"]
    assert "PAID 77" in http.get(f"/tabs/{tab}/text", params={"frameId": fid}).json()["text"]
    # by ref, by name; a ref that is no iframe is refused
    assert frame(http, tab, node(s, "Iframe", "Payment")["ref"]).json()["frame"]["frameId"] == fid
    assert frame(http, tab, "pay").json()["frame"]["frameId"] == fid
    bad = frame(http, tab, node(s, "heading", "Checkout")["ref"])
    assert bad.status_code == 400 and "not an iframe owner" in bad.json()["error"]


def test_nested_frames_across_origins_by_ref_and_by_a_hop_each(http: httpx.Client, tab: str, pages: str,
                                                                other: str) -> None:
    # the page (127.0.0.1:A) -> another site (localhost:B) -> back to the first site on port B
    open_page(http, tab, f"{pages}/nested.html?o={other_site(other)}&x={other}")
    settled(http, tab, "textbox", "Card number")
    # selectors need a hop per frame
    assert frame(http, tab, "#outer").status_code == 200
    assert http.post(f"/tabs/{tab}/action", json={"kind": "focus", "selector": "#card"}).status_code == 404
    res = frame(http, tab, "#inner-pay")
    assert res.status_code == 200 and res.json()["frame"]["frameName"] == "inner-pay"
    act(http, tab, kind="type", selector="#card", text="31")
    act(http, tab, kind="click", selector="#pay")
    wait_paid(http, tab, "31")
    # refs reach every frame from the page's scope (fill replaces the card number typed above)
    assert frame(http, tab, "main").json()["scoped"] is False
    s = settled(http, tab, "textbox", "Card number")
    outer, inner = node(s, "Iframe", "Checkout"), node(s, "Iframe", "Inner payment")
    assert inner["depth"] == outer["depth"] + 1 and inner["childFrameUrl"] == f"{other}/pay.html"
    inter = settled(http, tab, "textbox", "Card number", filter="interactive")
    assert node(inter, "textbox", "Card number")["ref"] == node(s, "textbox", "Card number")["ref"]
    pay_by_ref(http, tab, s)
