"""Schemathesis against the server's /openapi.json: test_fuzz.py's run (the same settings and
checks) on a ``pinchtab server`` with its default instance, in a file of its own so that pytest-xdist
runs it beside the bridge's. The bridge routes the server proxies get FUZZ_PROXIED requests each:
their handlers are the bridge's, fuzzed by test_fuzz.py; here the proxy in front is what is tested."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.e2e.test_fuzz import base, figure, fuzz, fuzz_config, load_schemathesis, operations, real_tab


@pytest.fixture(scope="module")
def server_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from tests.e2e.test_server import ServerProc, running_server

    tmp = tmp_path_factory.mktemp("fuzz-server")
    cfg = fuzz_config(tmp / "state")
    srv = ServerProc(tmp, extra={"browser": cfg["browser"]})
    # schemathesis (and the OpenAPI loader it imports when it first loads a schema, 1.5 s of CPU with
    # hypothesis) is imported while the server and its default instance start.
    try:
        schemathesis = load_schemathesis()
        import schemathesis.specs.openapi.schemas  # noqa: F401
    except BaseException:
        srv.close()
        raise
    for proc in running_server(srv):
        base["server"] = proc.url
        yield schemathesis.openapi.from_url(f"{proc.url}/openapi.json")


def proxied() -> set[tuple[str, str]]:
    """(METHOD, path) of the bridge operations the server passes on to a bridge."""
    from pinchtab.api import proxied_routes

    return {(method, path) for route in proxied_routes() for method in route.methods for path in route.paths()}


def test_fuzz_server(server_schema: Any, pages: str, record_property: Any) -> None:
    proxy = proxied()
    assert proxy <= operations(server_schema)  # every one is documented, under the same path
    try:
        fuzz("server", server_schema, real_tab("server", pages), proxy)
    finally:
        record_property("figure", figure("server"))
