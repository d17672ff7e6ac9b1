"""What a page logs and fetches: console messages, errors, the network log and network routes."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.gates import NETWORK_INTERCEPT
from pinchtab.models.base import TabScoped
from pinchtab.models.observe import (
    LogQuery, NetworkDetailQuery, NetworkExportQuery, NetworkExportStreamQuery, NetworkQuery, NetworkRouteRequest,
    NetworkStreamQuery, NetworkUnrouteRequest,
)


ROUTES: tuple[Route, ...] = (
    Route("console", ("GET",), "/console", LogQuery, "Console messages of the tab (level, message, source, time)",
          mcp=("pinchtab_console",), cli=("console",)),
    Route("clear_console", ("POST",), "/console/clear", TabScoped, "Forget the tab's console messages",
          cli=("console-clear",)),
    Route("errors", ("GET",), "/errors", LogQuery, "Uncaught exceptions and failed loads of the tab",
          mcp=("pinchtab_errors",), cli=("errors",)),
    Route("clear_errors", ("POST",), "/errors/clear", TabScoped, "Forget the tab's errors", cli=("errors-clear",)),
    Route("network", ("GET",), "/network", NetworkQuery, "The tab's recent requests, oldest first",
          mcp=("pinchtab_network",), cli=("network",)),
    Route("network_clear", ("POST",), "/network/clear", TabScoped,
          "Forget logged requests: of the tabId given, or of every tab", mcp=("pinchtab_network_clear",),
          cli=("network-clear",)),
    Route("network_export", ("GET",), "/network/export", NetworkExportQuery,
          "The network log as HAR 1.2 (or NDJSON)", reply="text", cli=("network-export",)),
    Route("network_stream", ("GET",), "/network/stream", NetworkStreamQuery,
          "The tab's requests as server-sent events (event: network, one per change of a request)",
          reply="stream"),
    Route("network_export_stream", ("GET",), "/network/export/stream", NetworkExportStreamQuery,
          "Write finished requests to <stateDir>/exports/<path> as they come (HAR or NDJSON); "
          "server-sent events export {entries, url} and, at the end, done {entries, path}", reply="stream"),
    Route("network_routes", ("GET",), "/network/route", TabScoped, "The tab's network routes",
          gate=NETWORK_INTERCEPT, cli=("network-routes",)),
    Route("network_route", ("POST",), "/network/route", NetworkRouteRequest,
          "Add or replace (same pattern) a rule that aborts, fulfils or continues matching requests",
          gate=NETWORK_INTERCEPT, mcp=("pinchtab_network_route",), cli=("network-route",)),
    Route("network_unroute", ("DELETE",), "/network/route", NetworkUnrouteRequest,
          "Remove one rule (pattern) or all; 404 when the tab has none", gate=NETWORK_INTERCEPT,
          mcp=("pinchtab_network_unroute",), cli=("network-unroute",)),
    # Last: /network/{request_id} would otherwise take /network/route and /network/export.
    Route("network_detail", ("GET",), "/network/{request_id}", NetworkDetailQuery,
          "One logged request; body=true adds its response body (bodyMode: retained or Chromium's)", mcp=("pinchtab_network_detail",),
          cli=("network-detail",)),
)
