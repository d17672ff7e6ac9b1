"""What the bridge and the server share over HTTP: the error shape, token auth, JSON responses."""

from __future__ import annotations

import hmac
import json
import logging
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Receive, Scope, Send

from pinchtab.errors import PinchtabError

log = logging.getLogger("pinchtab.http")

PUBLIC_PATHS = frozenset({"/health"})


class FastJSON(JSONResponse):
    """Compact UTF-8 JSON, skipping FastAPI's jsonable_encoder pass over big snapshots."""

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, separators=(",", ":")).encode()


def error_response(status: int, message: str, code: str, **extra: Any) -> FastJSON:
    return FastJSON({"error": message, "code": code, **extra}, status_code=status)


def _required_fields(request: Request | None) -> list[str]:
    """The required body fields of the route that was called (their JSON names)."""
    route = request.scope.get("route") if request is not None else None
    field = getattr(route, "body_field", None)
    model = getattr(field, "type_", None) or getattr(getattr(field, "field_info", None), "annotation", None)
    fields = getattr(model, "model_fields", None) or {}
    return [f.alias or name for name, f in fields.items() if f.is_required()]


def _describe_validation(exc: RequestValidationError, request: Request | None = None) -> tuple[str, str]:
    errors = exc.errors()
    if not errors:
        return "invalid request", "bad_request"
    first = errors[0]
    if first.get("type") == "json_invalid":
        return f"invalid JSON body: {first.get('ctx', {}).get('error', first.get('msg'))}", "invalid_json"
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "query", "path")]
    where = ".".join(loc)
    msg = first.get("msg", "invalid value")
    if first.get("type") == "missing":
        if not where:
            # An empty body ({} too): name what it must hold.
            required = _required_fields(request)
            if required:
                return f"{' and '.join(required)} {'is' if len(required) == 1 else 'are'} required", f"missing_{required[0]}"
            return "a JSON body is required", "missing_body"
        return f"{where} is required", f"missing_{loc[-1]}" if loc else "missing_field"
    if first.get("type") == "literal_error" and loc and loc[-1] == "kind":
        return f"unknown action kind {first.get('input')!r}; {msg[0].lower()}{msg[1:]}", "unknown_kind"
    if first.get("type") == "model_attributes_type":
        return "the JSON body must be an object", "invalid_body"
    return (f"{where}: {msg}" if where else msg), "invalid_field"


def install_error_handlers(app: FastAPI) -> None:
    @app.exception_handler(PinchtabError)
    async def _pinchtab_error(request: Request, exc: PinchtabError) -> Response:
        return FastJSON(exc.to_dict(), status_code=exc.status)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> Response:
        message, code = _describe_validation(exc, request)
        return error_response(400, message, code)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if exc.status_code == 404:
            return error_response(404, f"no route {request.method} {request.url.path}; see /openapi.json", "no_route")
        if exc.status_code == 405:
            return error_response(405, f"{request.method} is not allowed on {request.url.path}", "method_not_allowed")
        return error_response(exc.status_code, str(exc.detail), "http_error")

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> Response:
        log.exception("unexpected error on %s %s", request.method, request.url.path)
        return error_response(500, f"internal error: {type(exc).__name__}: {exc}", "internal_error")


class TokenAuth:
    """Bearer-token check on every route but the public ones (pure ASGI: no per-request task)."""

    def __init__(self, app: ASGIApp, token: str | None) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode() if token else None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if self.expected is None or scope["type"] != "http" or scope["path"] in PUBLIC_PATHS:
            await self.app(scope, receive, send)
            return
        given = b""
        for name, value in scope["headers"]:
            if name == b"authorization":
                given = value
                break
        if hmac.compare_digest(given, self.expected):
            await self.app(scope, receive, send)
            return
        message = "missing or wrong token: send Authorization: Bearer <token>"
        response = error_response(401, message, "unauthorized")
        response.headers["WWW-Authenticate"] = "Bearer"
        await response(scope, receive, send)
