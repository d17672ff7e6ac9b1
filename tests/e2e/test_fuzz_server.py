"""Schemathesis against the server's /openapi.json: test_fuzz.py's run (the same settings and
checks) on a ``pinchtab server`` with its default instance, in a file of its own so that pytest-xdist
runs it beside the bridge's."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.test_fuzz import figure, base, fuzz, fuzz_config, real_tab, schemathesis


@pytest.fixture(scope="module")
def server_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.e2e.test_server import ServerProc, running_server

    tmp = tmp_path_factory.mktemp("fuzz-server")
    cfg = fuzz_config(tmp / "state")
    srv = ServerProc(tmp, extra={"browser": cfg["browser"]})
    for proc in running_server(srv):
        base["server"] = proc.url
        yield schemathesis.openapi.from_url(f"{proc.url}/openapi.json")


def test_fuzz_server(server_schema: Any, pages: str, record_property: Any) -> None:
    try:
        fuzz("server", server_schema, real_tab("server", pages))
    finally:
        record_property("figure", figure("server"))
