"""The generated route methods (``pinchtab.client.routes``) and the ``Tab`` handle."""

from __future__ import annotations

import asyncio
import inspect
import subprocess
import sys

import pytest

import pinchtab
from pinchtab.client import gen
from pinchtab.api import ROUTES, ROUTES_BY_NAME
from pinchtab.client import AsyncClient, Call, Client, _Routes
from pinchtab.client.tab import Tab, target


def test_generated_module_is_current() -> None:
    assert gen.TARGET.read_text() == gen.source(), (
        f"{gen.TARGET.name} is stale: run `{gen.REGENERATE}`")


def test_client_methods_are_explicit() -> None:
    client_source = inspect.getsource(sys.modules["pinchtab.client"])
    assert "setattr(" not in client_source
    generated = {r.name for r in gen.generated_routes()}
    assert generated and not generated & set(vars(_Routes))
    for route in ROUTES:  # every route: hand-written, or generated with the model's names
        method = getattr(Client, route.name)
        if route.name in generated:
            params = inspect.signature(method).parameters
            fields = set(route.request.model_fields) if route.request else set()
            assert set(params) - {"self"} <= fields | {"tab_id"}, route.name


class Recorder(_Routes):
    def __init__(self) -> None:
        self.calls: list[Call] = []

    def _send(self, call: Call) -> Call:
        self.calls.append(call)
        return call


def test_generated_methods_send_what_call_sends() -> None:
    pt = Recorder()
    assert pt.instance_logs("inst_1", lines=20) == pt.call("instance_logs", instance_id="inst_1", lines=20)
    sent = pt.network_detail("r1", tab_id="T", body=True)
    assert (sent.method, sent.path, sent.params) == ("GET", "/tabs/T/network/r1", {"body": True})
    with pytest.raises(TypeError):
        pt.instance_logs("inst_1", linez=20)  # a typo is an error, not a no-op
    assert "lines" in (ROUTES_BY_NAME["instance_logs"].request.model_fields)


def test_tab_handle_binds_the_tab_and_reads_refs_and_selectors() -> None:
    assert target("e5") == {"ref": "e5"} and target(" ref:e7 ") == {"ref": "e7"}
    assert target("role:button Log in") == {"selector": "role:button Log in"}
    pt = Recorder()
    tab = pt.tab("T1")
    assert isinstance(tab, Tab) and tab.id == "T1"
    click = tab.click("role:button Log in")
    assert (click.path, click.json) == ("/tabs/T1/action", {"kind": "click", "selector": "role:button Log in"})
    fill = tab.fill("e3", "ada")
    assert fill.json == {"kind": "fill", "ref": "e3", "value": "ada"}
    assert tab.snapshot(format="compact").path == "/tabs/T1/snapshot"
    assert tab.close().path == "/tabs/T1/close"
    current = pt.tab()
    nav = current.navigate("https://example.com")
    assert (nav.path, nav.json) == ("/navigate", {"url": "https://example.com", "currentTab": True})
    assert current.text().path == "/text"


def test_error_type_is_exported_lazily() -> None:
    from pinchtab.client import PinchtabClientError

    assert pinchtab.PinchtabClientError is PinchtabClientError
    assert {"Client", "AsyncClient", "PinchtabClientError"} <= set(pinchtab.__all__)
    code = "import sys, pinchtab; print('httpx' in sys.modules, 'pydantic' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["False", "False"]


def test_both_clients_open_tab_handles() -> None:
    sent: list[Call] = []

    class SyncFake(Client):
        def _send(self, call: Call) -> dict:
            sent.append(call)
            return {"tabId": "T9"}

    class AsyncFake(AsyncClient):
        async def _send(self, call: Call) -> dict:  # type: ignore[override]
            sent.append(call)
            return {"tabId": "T8"}

    assert SyncFake("http://127.0.0.1:1", token="").open_tab("https://a.example").id == "T9"
    tab = asyncio.run(AsyncFake("http://127.0.0.1:1", token="").open_tab())
    assert tab.id == "T8" and isinstance(tab, Tab)
    assert [(c.path, c.json) for c in sent] == [("/tab", {"action": "new", "url": "https://a.example"}),
                                               ("/tab", {"action": "new"})]
