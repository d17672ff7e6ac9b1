"""Every route of the table is on every surface that should have it, and nothing else is."""

from __future__ import annotations

import pytest

from pinchtab.api import ROUTES, bridge_routes, proxied_routes, server_routes
from pinchtab.client import AsyncClient, Client
from pinchtab.config import load_config
from pinchtab.server.tab_owners import SHORTHAND_ROUTES, TAB_ANSWERING

# The services, the server's app and the MCP tools are imported by the tests that check them: every
# pytest-xdist worker collects this module, and the MCP SDK and the server's app cost it ~1.7 s of CPU.


def test_every_bridge_route_has_a_service_method() -> None:
    from pinchtab.browser.service.browser_service import BrowserService

    missing = [r.name for r in bridge_routes() if not callable(getattr(BrowserService, r.name, None))]
    assert not missing


def test_every_server_route_has_a_handler() -> None:
    from pinchtab.dashboard.service import DashboardHandlers
    from pinchtab.server.app import ServerHandlers

    missing = [r.name for r in server_routes()
               if not callable(getattr(ServerHandlers, r.name, None) or getattr(DashboardHandlers, r.name, None))]
    assert not missing


def test_tab_routes_take_a_tab_id() -> None:
    assert all("tab_id" in r.request.model_fields for r in ROUTES if r.tabbed and r.request is not None)
    assert all(r.request is not None for r in ROUTES if r.tabbed)


def test_path_parameters_are_fields() -> None:
    for r in ROUTES:
        for p in r.path_params:
            assert r.request is not None and p in r.request.model_fields, f"{r.name}: {p}"


@pytest.mark.parametrize("client", [Client, AsyncClient])
def test_every_route_has_a_client_method(client: type) -> None:
    assert not [r.name for r in ROUTES if not callable(getattr(client, r.name, None))]


def test_mcp_tools_and_routes_name_each_other() -> None:
    from pinchtab.mcp.tools import LOCAL_TOOLS, TOOLS

    tools = {t.name: t for t in TOOLS}
    for r in ROUTES:
        for name in r.mcp:
            assert name in tools and tools[name].route == r.name, name
    for t in TOOLS:
        assert t.route is not None or t.name in LOCAL_TOOLS, f"{t.name} calls no route of the table"


def test_every_cli_name_is_a_command() -> None:
    from pinchtab.cli import main
    from pinchtab.commands.table import command_names as _command_names

    main.add_client_commands()  # added on first use (pinchtab.cli._Commands)
    names = _command_names(main)
    assert not [n for r in ROUTES for n in r.cli if n not in names]


def test_proxy_forwards_exactly_the_bridge_routes() -> None:
    assert set(SHORTHAND_ROUTES) == {r.path for r in proxied_routes()}
    for r in proxied_routes():
        assert set(r.methods) <= set(SHORTHAND_ROUTES[r.path])
    assert {"navigate", "tab", "close", "back", "forward", "reload"} <= TAB_ANSWERING
    assert "/browser/restart" not in SHORTHAND_ROUTES and "/profiles" not in SHORTHAND_ROUTES


def test_openapi_of_bridge_and_server_from_the_table() -> None:
    from pinchtab.bridge.app import create_app as bridge_app
    from pinchtab.server.app import create_app as server_app

    config = load_config(environ={})
    bridge = bridge_app(config).openapi()["paths"]
    server = server_app(config, default_instance=False).openapi()["paths"]
    for r in bridge_routes():
        for path in r.paths():
            assert {m.lower() for m in r.methods} <= set(bridge[path]), path
    for r in server_routes() + proxied_routes():
        for path in r.paths():
            assert {m.lower() for m in r.methods} <= set(server[path]), path
    assert "/profiles" not in bridge and "/browser/restart" not in server
