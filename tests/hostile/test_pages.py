"""What a mocked response may do in a page (issue 27, row 4): never run the caller's script."""

from __future__ import annotations

import httpx
import pytest

from tests.hostile.tabs import on_session_bridge

XHTML = ('<html xmlns="http://www.w3.org/1999/xhtml"><head><title>mocked</title></head>'
         "<body><p>hi</p><script>document.title = 'script ran'</script></body></html>")


hostile_bridge = pytest.fixture(scope="module", name="hostile_bridge")(on_session_bridge)


def test_a_fulfilled_xml_document_runs_no_script(open_bridge: httpx.Client, new_tab: str, pages: str) -> None:
    for content_type in ("text/xml", "application/xml"):
        url = f"{pages}/mocked-{content_type.replace('/', '-')}.xml"
        res = open_bridge.post(f"/tabs/{new_tab}/network/route", json={
            "pattern": url, "action": "fulfill", "body": XHTML, "contentType": content_type})
        assert res.status_code == 200, res.text
        res = open_bridge.post(f"/tabs/{new_tab}/navigate", json={"url": url})
        assert res.status_code == 200, res.text
        res = open_bridge.post(f"/tabs/{new_tab}/evaluate", json={"expression": "document.title"})
        assert res.json()["result"] == "mocked", (content_type, res.text)
    open_bridge.post(f"/tabs/{new_tab}/network/unroute", json={})
