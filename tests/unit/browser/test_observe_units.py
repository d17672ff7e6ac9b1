"""Pure parts of the observation work: network filters, redaction, HAR, route rules, URL globs,
console text, and the server's matching of shorthand paths with a parameter."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from pinchtab.browser.observe.console_log import ConsoleLog
from pinchtab.browser.observe.interception import make_rule
from pinchtab.browser.observe.network_log import NetworkEntry, NetworkLog, har_entry, redact_headers, status_matches
from pinchtab.browser.observe.network_stream import ExportFile, export_events
from pinchtab.globs import Glob
from pinchtab.errors import BadRequest
from pinchtab.models.observe import NetworkStreamQuery
from pinchtab.server.tab_owners import is_shorthand


def test_status_patterns() -> None:
    assert status_matches(404, "404") and not status_matches(200, "404")
    assert status_matches(503, "5xx") and not status_matches(404, "5xx")
    assert status_matches(200, "whatever")


def test_redaction() -> None:
    headers = {"Cookie": "a=1", "authorization": "Bearer x", "Accept": "*/*"}
    assert redact_headers(headers) == {"Cookie": "[REDACTED]", "authorization": "[REDACTED]", "Accept": "*/*"}
    assert redact_headers(headers, redact=False) == headers


def _request(log: NetworkLog, rid: str, url: str, kind: str = "Fetch") -> None:
    log.on_request({"requestId": rid, "request": {"url": url, "method": "GET", "headers": {"Cookie": "s=1"}},
                    "type": kind, "timestamp": 1.0, "wallTime": 1700000000.0})


def test_network_log_is_bounded_and_filters() -> None:
    log = NetworkLog(size=3)
    for i in range(5):
        _request(log, str(i), f"http://x/{i}.json")
    assert [e.request_id for e in log.select()] == ["2", "3", "4"]
    assert log.inflight == {"2", "3", "4"}
    log.on_response({"requestId": "4", "response": {"status": 404, "headers": {"Set-Cookie": "t"}}})
    log.on_finished({"requestId": "4", "timestamp": 1.5, "encodedDataLength": 10})
    assert [e.request_id for e in log.select(status="4xx")] == ["4"]
    assert log.select(type="xhr", limit=1)[0].request_id == "4"
    entry = log.get("4").to_json()
    assert entry["duration"] == 500.0 and entry["responseHeaders"] == {"Set-Cookie": "[REDACTED]"}
    har = har_entry(log.get("4"))
    assert har["response"]["status"] == 404 and {"name": "Cookie", "value": "[REDACTED]"} in har["request"]["headers"]


def test_redirects_keep_each_hop() -> None:
    log = NetworkLog(size=10)
    _request(log, "1", "http://x/a", "Document")
    log.on_request({"requestId": "1", "request": {"url": "http://x/b", "method": "GET"}, "type": "Document",
                    "timestamp": 1.2, "redirectResponse": {"status": 302, "headers": {"Location": "/b"}}})
    assert [(e.request_id, e.url, e.status) for e in log.select()] == [("1.redirect1", "http://x/a", 302),
                                                                        ("1", "http://x/b", 0)]


def test_rules() -> None:
    assert make_rule("x", "abort").matches("http://a/x/y", "Script", "GET")
    rule = make_rule("*.png", "fulfill", resource_type="image", method="get", content_type="image/png")
    assert rule.resource_type == "Image" and rule.method == "GET"
    assert rule.matches("http://a/b.png", "Image", "GET") and not rule.matches("http://a/b.png?x", "Image", "GET")
    assert not rule.matches("http://a/b.png", "Fetch", "GET")
    for bad in ({"status": 50}, {"content_type": "text/html"}, {"content_type": "application/json\r\nX: 1"},
                {"method": "FOO"}, {"resource_type": "java"}, {"body": "x" * (1024 * 1024 + 1)}):
        with pytest.raises(BadRequest):
            make_rule("x", "fulfill", **bad)
    with pytest.raises(BadRequest):
        make_rule("", "abort")
    assert Glob("a?c").fullmatch("abc")


def test_url_glob() -> None:
    assert Glob("**/dash*", segment_star=True).search("http://h/app/dashboard")
    assert not Glob("http://h/*/x", segment_star=True).search("http://h/a/b/x")
    assert Glob("example.com", segment_star=True).search("https://example.com/")


def test_console_text() -> None:
    log = ConsoleLog(2, 2, 100)
    log.on_console({"type": "warning", "args": [{"type": "string", "value": "a"}, {"type": "number", "value": 1},
                                                {"type": "undefined"}, {"type": "boolean", "value": True}]})
    log.on_console({"type": "log", "args": [{"type": "string", "value": "x" * 500}]})
    log.on_console({"type": "error", "args": [{"type": "object", "className": "Object", "preview": {
        "properties": [{"name": "k", "value": "1"}], "overflow": False}}]})
    entries = log.console_entries()
    assert len(entries) == 2 and entries[0]["message"].endswith("…") and entries[1]["message"] == "{k: 1}"
    log.on_exception({"exceptionDetails": {"text": "Uncaught", "url": "http://x/a.js", "lineNumber": 2,
                                           "columnNumber": 4, "exception": {"className": "TypeError",
                                           "description": "TypeError: bad\n    at f (a.js:3:5)"}}})
    err = log.error_entries()[0]
    assert err["message"] == "Uncaught TypeError: bad" and err["line"] == 3 and err["stack"].startswith("at f")


def test_shorthand_paths_with_a_parameter() -> None:
    assert is_shorthand("/network/1234.5") and is_shorthand("/console")
    assert not is_shorthand("/network/a/b") and not is_shorthand("/nope")



async def test_export_stream_takes_requests_sent_after_it_began_and_says_why_a_body_is_missing(tmp_path: Path) -> None:
    log = NetworkLog(size=10)
    _request(log, "before", "http://x/data.json")  # of the page before: it finishes once the stream has begun
    q = NetworkStreamQuery.model_validate({"maxEvents": 1, "durationMs": 5000})

    async def body(entry: NetworkEntry) -> dict[str, Any]:
        return {"body": "fetched ok"}

    async def run(events: AsyncIterator[Any]) -> list[Any]:
        return [event async for event in events]

    stream = asyncio.ensure_future(run(export_events(log, q, ExportFile(tmp_path / "out.ndjson", "ndjson", "t"), body)))
    await asyncio.sleep(0)  # the stream has subscribed
    log.on_finished({"requestId": "before", "timestamp": 1.5})
    _request(log, "after", "http://x/data.json")
    log.on_finished({"requestId": "after", "timestamp": 1.5})
    assert await stream == [("export", {"entries": 1, "url": "http://x/data.json"}),
                            ("done", {"entries": 1, "path": str(tmp_path / "out.ndjson")})]
    [line] = (tmp_path / "out.ndjson").read_text().splitlines()
    assert json.loads(line)["_requestId"] == "after" and json.loads(line)["response"]["content"]["text"] == "fetched ok"
    gone = har_entry(log.get("before"), body={"error": "No resource with given identifier found"})["response"]
    assert gone["content"]["_bodyError"] == "No resource with given identifier found" and "text" not in gone["content"]
