"""What a page logs and fetches: console messages, errors, the network log and network routes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from pinchtab.api.route import Gate, Route
from pinchtab.models import Leased, TabScoped

NETWORK_INTERCEPT = Gate("allowNetworkIntercept", "network_intercept_disabled", "network interception",
                         "PINCHTAB_ALLOW_NETWORK_INTERCEPT")
MAX_LOG_LIMIT = 1000


class LogQuery(TabScoped):
    limit: int | None = Field(None, ge=0, description="At most this many entries, newest last (0 or omitted: all; "
                                                       f"at most {MAX_LOG_LIMIT}).")

    @field_validator("limit")
    @classmethod
    def _cap(cls, value: int | None) -> int | None:
        return None if not value else min(value, MAX_LOG_LIMIT)


class NetworkQuery(TabScoped):
    filter: str | None = Field(None, description="Only requests whose URL contains this text (case-insensitive).")
    method: str | None = Field(None, description="Only this HTTP method (GET, POST, ...).")
    status: str | None = Field(None, description="Only this status: an exact code (404) or a class (4xx).")
    type: str | None = Field(None, description="Only this resource type: document, script, image, xhr, fetch, ...")
    limit: int | None = Field(None, ge=0, description="At most this many, newest last.")
    buffer_size: int | None = Field(None, ge=1, description="Accepted for PinchTab clients; the buffer size is "
                                                             "observe.networkBuffer in the config.")
    redact: bool = Field(True, description="Replace Cookie, Authorization and Set-Cookie values with [REDACTED].")


class NetworkDetailQuery(TabScoped):
    request_id: str = Field(..., description="requestId from GET /network.")
    body: bool = Field(False, description="Add the response body (responseBody, base64Encoded) when Chromium still has it.")
    redact: bool = Field(True, description="Replace Cookie, Authorization and Set-Cookie values with [REDACTED].")


class NetworkExportQuery(NetworkQuery, Leased):
    format: Literal["har", "ndjson"] = Field("har", description="har: one HAR 1.2 document; ndjson: one HAR entry per line.")
    body: bool = Field(False, description="Include response bodies that Chromium still holds.")


class NetworkRouteRequest(TabScoped):
    pattern: str | None = Field(None, description="URL pattern: a substring, or a glob over the whole URL with * and ?.")
    action: Literal["continue", "abort", "fulfill"] = Field(
        "continue", description="continue: let it through; abort: fail it (BlockedByClient); fulfill: answer it with body.")
    body: str | None = Field(None, description="Body of the fulfilled response (at most 1 MiB).")
    content_type: str | None = Field(None, description="Content-Type of the fulfilled response (default "
                                                       "application/json; no HTML, JavaScript or SVG).")
    status: int | None = Field(None, description="Status of the fulfilled response (100-599, default 200).")
    resource_type: str | None = Field(None, description="Only requests of this resource type (script, xhr, fetch, image, ...).")
    method: str | None = Field(None, description="Only requests with this HTTP method.")


class NetworkUnrouteRequest(TabScoped):
    pattern: str | None = Field(None, description="Remove the rule with this pattern; all rules when omitted.")


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
          "One logged request; body=true adds its response body", mcp=("pinchtab_network_detail",),
          cli=("network-detail",)),
)
