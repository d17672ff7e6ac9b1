"""What a page logs and fetches: console messages, errors, the network log and network routes."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from pinchtab.models.base import Leased, Printable, TabScoped

MAX_LOG_LIMIT = 1000
MAX_BODY_WAIT_MS = 30000


class LogQuery(TabScoped):
    limit: int | None = Field(None, ge=0, description="At most this many entries, newest last (0 or omitted: all; "
                                                       f"at most {MAX_LOG_LIMIT}).")

    @field_validator("limit")
    @classmethod
    def _cap(cls, value: int | None) -> int | None:
        return None if not value else min(value, MAX_LOG_LIMIT)


class NetworkFilters(TabScoped):
    filter: str | None = Field(None, description="Only requests whose URL contains this text (case-insensitive).")
    method: str | None = Field(None, description="Only this HTTP method (GET, POST, ...).")
    status: str | None = Field(None, description="Only this status: an exact code (404) or a class (4xx).")
    type: str | None = Field(None, description="Only this resource type: document, script, image, xhr, fetch, ...")
    buffer_size: int | None = Field(None, ge=1, description="Accepted for PinchTab clients; the buffer size is "
                                                             "observe.networkBuffer in the config.")
    redact: bool = Field(True, description="Replace Cookie, Authorization and Set-Cookie values with [REDACTED].")
    broken: bool = Field(False, description="Only broken assets (answered 400 or more, or failed), as "
                                            "{url, resourceType, statusCode, error}.")


class NetworkQuery(NetworkFilters):
    limit: int | None = Field(None, ge=0, description="At most this many, newest last.")


# PinchTab ends a streamed export after 30 minutes.
MAX_STREAM_SEC = 1800


class NetworkStreamQuery(NetworkFilters):
    max_events: int | None = Field(None, ge=1, description="End the stream after this many events (default: when "
                                                           "the caller leaves).")
    duration_ms: int | None = Field(None, ge=1, le=MAX_STREAM_SEC * 1000,
                                    description=f"End the stream after this long (at most {MAX_STREAM_SEC} s).")


class NetworkDetailQuery(TabScoped):
    request_id: str = Field(..., description="requestId from GET /network.")
    body: bool = Field(False, description="Add the response body (responseBody, base64Encoded, bodySource).")
    body_mode: Literal["auto", "retained-preferred", "retained-only", "live-only"] = Field(
        "auto", description="Where the body comes from: auto (the retained one, else Chromium's), retained-preferred "
                            "(wait up to timeoutMs for a retained body still being read), retained-only (never "
                            "Chromium's; bodyPending/bodySkipped say why there is none), live-only (Chromium's).")
    timeout_ms: int = Field(2000, ge=0, description=f"retained-preferred's wait, ms (at most {MAX_BODY_WAIT_MS}).")
    redact: bool = Field(True, description="Replace Cookie, Authorization and Set-Cookie values with [REDACTED].")

    @field_validator("timeout_ms")
    @classmethod
    def _cap_wait(cls, value: int) -> int:
        return min(value, MAX_BODY_WAIT_MS)


class NetworkExportQuery(NetworkQuery, Leased):
    format: Literal["har", "ndjson"] = Field("har", description="har: one HAR 1.2 document; ndjson: one HAR entry per line.")
    body: bool = Field(False, description="Include response bodies (retained ones, else those Chromium still holds).")
    output: Literal["file"] | None = Field(None, description="file: write it under <stateDir>/exports and answer "
                                                             "{path, entries, format}.")
    path: Printable | None = Field(None, max_length=255, description="The file's name with output=file "
                                                                      "(default network-<date>-<time>.har|.ndjson).")


class NetworkExportStreamQuery(NetworkStreamQuery, Leased):
    format: Literal["har", "ndjson"] = Field("har", description="har: one HAR 1.2 document; ndjson: one HAR entry per line.")
    path: Printable = Field(..., max_length=255, description="File name under <stateDir>/exports; written as <path>.tmp "
                                                              "and renamed when the stream ends.")
    body: bool = Field(False, description="Include response bodies (retained ones, else those Chromium still holds).")


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
