"""Supervision logic without processes: proxy deadlines per route, tab ids moved after a crash,
the restart policy's backoff (issue 16)."""

from __future__ import annotations

import json
import re
from types import SimpleNamespace

from pinchtab.config import RestartPolicy, load_config
from pinchtab.server.health import tab_list
from pinchtab.server.proxy import route_deadline
from pinchtab.server.supervisor import Supervisor
from pinchtab.server.tab_owners import TabOwners


def test_proxy_deadline_is_the_routes_timeout_plus_a_margin() -> None:
    config = load_config({"browser": {"navigationTimeoutMs": 30000, "commandTimeoutMs": 30000}}, environ={})
    assert route_deadline(config, "snapshot", b"") == 35
    assert route_deadline(config, "navigate", json.dumps({"url": "x", "timeout": 2000}).encode()) == 2 + 30 + 5
    assert route_deadline(config, "navigate", b'{"url":"x"}') == 30 + 30 + 5
    assert route_deadline(config, "wait", b'{"selector":"#a","timeout":1000}') == 6
    assert route_deadline(config, "wait", b'{"selector":"#a","timeout":600000}') == 35  # waits are capped at 30 s
    assert route_deadline(config, "navigate", b'{"timeout":true}') == 65  # not a number: the default
    assert route_deadline(config, "navigate", b"[" * 10000) == 65
    # A pause given in ms sets the deadline too (issue 27, row 8: 20 s asked, 504 at 6 s)
    assert route_deadline(config, "wait", b'{"ms":20000,"timeout":1000}') == 25
    assert route_deadline(config, "wait", b'{"ms":90000}') == 35
    # Audits bound themselves on the bridge: a run at 10 minutes, one page at 3
    assert route_deadline(config, "audit", b'{"urls":["x"]}') == 600 + 5
    assert route_deadline(config, "audit_page", b'{"url":"x"}') == 180 + 5


def test_moved_tabs_keep_their_old_ids() -> None:
    owners = TabOwners()
    owners.learn("OLD", "inst_a")
    owners.moved("OLD", "NEW", "inst_a")
    assert owners.current_id("OLD") == "NEW" and owners.owner("NEW") == "inst_a"
    owners.moved("NEW", "NEWER", "inst_a")  # a second crash
    assert owners.current_id("OLD") == "NEWER" and owners.current_id("NEW") == "NEWER"
    assert owners.current_id("OTHER") == "OTHER"


async def test_restarts_back_off_and_give_up() -> None:
    manager = SimpleNamespace(closing=False, instances={})
    policy = RestartPolicy(maxRestarts=3, initBackoffSec=1, maxBackoffSec=3, stableAfterSec=300)
    sup = Supervisor(manager, TabOwners(), policy)  # type: ignore[arg-type]
    inst = SimpleNamespace(id="inst_a", crash_restarts=0, running_since=0.0, error="exited", last_tabs={})
    delays = []
    for _ in range(3):
        inst.error = "exited"
        assert sup.bridge_exited(inst)  # type: ignore[arg-type]
        delays.append(float(re.search(r"in ([\d.]+) s", inst.error).group(1)))
    assert delays == [1, 2, 3]
    inst.error = "exited"
    assert not sup.bridge_exited(inst)  # type: ignore[arg-type]
    assert "gave up after 3 restarts" in inst.error and "maxRestarts" in inst.error
    await sup.close()


def test_tab_list() -> None:
    assert tab_list({"tabs": [{"id": "A", "url": "http://x/"}, {"id": "B"}, "junk"]}) == [("A", "http://x/"), ("B", "about:blank")]
    assert tab_list(None) == []


def test_tabs_the_proxy_saw_keep_the_url_they_were_loading() -> None:
    from pinchtab.server.health import merge_tabs
    from pinchtab.server.tab_owners import tab_in_response, url_in_request

    known = {"A": "http://slow/", "B": "http://b/"}
    # A never finished loading (the bridge lists it blank); B moved on; C is new; gone tabs go.
    assert merge_tabs(known, [("A", "about:blank"), ("B", "http://b2/"), ("C", "about:blank")]) == {
        "A": "http://slow/", "B": "http://b2/", "C": "about:blank"}
    assert tab_in_response(b'{"error":"x","code":"navigation_timeout","tabId":"T"}') == ("T", None)
    assert tab_in_response(b'{"tabId":"T","url":"http://x/","title":""}') == ("T", "http://x/")
    assert url_in_request(b'{"url":"http://x/","newTab":true}') == "http://x/"
    assert url_in_request(b'{"url":5}') is None and url_in_request(b"[") is None


def test_a_reopened_tab_is_shown_under_the_id_its_agent_knows() -> None:
    owners = TabOwners()
    owners.learn("OLD", "inst_a")
    owners.moved("OLD", "NEW", "inst_a")
    owners.moved("NEW", "NEWER", "inst_a")  # a second crash
    assert owners.public_id("NEWER") == "OLD" and owners.public_id("OTHER") == "OTHER"
    owners.replace_instance("inst_a", ["NEWER", "X"])  # a listing keeps what it still lists
    assert owners.public_id("NEWER") == "OLD"
    owners.forget("NEWER")
    assert owners.public_id("NEWER") == "NEWER"


async def test_a_reopened_tab_whose_new_tab_timed_out_takes_the_blank_tab_it_left() -> None:
    # A fresh bridge on a loaded machine: POST /tab answers 504 (Page.enable passed commandTimeoutMs)
    # though its tab was opened. That tab was lost (404 for its old id) and the blank one left open.
    listed = ["BLANK"]
    opens: list[str] = []

    class Bridge:
        async def get_json(self, *_: object) -> tuple[int, object]:
            return 200, {"tabs": [{"id": t, "url": "about:blank"} for t in listed]}

        async def post_json(self, origin: str, path: str, body: dict[str, object], *_: object) -> tuple[int, object]:
            if path == "/navigate":
                return 200, {"tabId": body["tabId"]}
            opens.append(f"NEW{len(opens) + 1}")
            listed.append(opens[-1])
            return (504, {"code": "timeout"}) if len(opens) == 1 else (200, {"tabId": opens[-1]})

    manager = SimpleNamespace(client=Bridge(), auth_header=lambda inst: [],
                              config=SimpleNamespace(browser=SimpleNamespace(navigation_timeout_ms=1000)))
    owners = TabOwners()
    sup = Supervisor(manager, owners, RestartPolicy())  # type: ignore[arg-type]
    inst = SimpleNamespace(id="inst_a", url="http://bridge", last_tabs={}, tab_updates=0, restoring={"A", "B", "C"})
    await sup._reopen(inst, [("A", "http://x/a"), ("B", "http://x/b"), ("C", "about:blank")])  # type: ignore[arg-type]
    assert opens == ["NEW1", "NEW2"] and inst.restoring == set()  # no third tab opened
    assert {old: owners.current_id(old) for old in "ABC"} == {"A": "BLANK", "B": "NEW1", "C": "NEW2"}
    assert set(inst.last_tabs) == {"BLANK", "NEW1", "NEW2"}
