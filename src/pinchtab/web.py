"""What the bridge and the server share over HTTP: the error shape, token auth, JSON responses."""

from __future__ import annotations

import hmac
import json
import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import JSONResponse, Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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


# The agent session a request authenticated with (``Authorization: Session <token>``), for the
# handlers that answer about it (GET /sessions/me); the recorder reads the same from the scope.
SESSION_SCOPE = "pinchtab.session"
current_session: ContextVar[dict[str, Any] | None] = ContextVar("current_session", default=None)


class TokenAuth:
    """Bearer-token check on every route but the public ones (pure ASGI: no per-request task).

    The server adds its dashboard's public paths (``public``, ``public_prefix``), accepts its
    login cookie (``cookie``: name and value) in place of the header (the Origin check of
    ``RequestGuard`` still refuses other sites' pages, so they cannot use it), and agent sessions:
    ``sessions(token)`` gives the session of an ``Authorization: Session`` token or None (401);
    ``session_may(method, path, session)`` says whether a session may call that route (403 if
    not); with ``sessions_required`` the routes a session may call refuse the bearer token.
    """

    def __init__(self, app: ASGIApp, token: str | None, public: frozenset[str] = frozenset(),
                 public_prefix: str | None = None, cookie: tuple[str, str] | None = None,
                 sessions: Callable[[str], dict[str, Any] | None] | None = None,
                 session_may: Callable[[str, str, dict[str, Any]], bool] | None = None,
                 sessions_required: bool = False) -> None:
        self.app = app
        self.expected = f"Bearer {token}".encode() if token else None
        self.public = PUBLIC_PATHS | public
        self.public_prefix = public_prefix
        self.cookie = f"{cookie[0]}={cookie[1]}".encode() if cookie else None
        self.sessions = sessions
        self.session_may = session_may
        self.sessions_required = sessions_required

    def _public(self, path: str) -> bool:
        return path in self.public or (self.public_prefix is not None and path.startswith(self.public_prefix))

    def _has_cookie(self, scope: Scope) -> bool:
        if self.cookie is None:
            return False
        for name, value in scope["headers"]:
            if name == b"cookie":
                return any(hmac.compare_digest(part.strip(), self.cookie) for part in value.split(b";"))
        return False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = b""
        for name, value in scope["headers"]:
            if name == b"authorization":
                given = value
                break
        if self.sessions is not None and given[:8].lower() == b"session ":
            await self._with_session(given[8:].decode("latin-1").strip(), scope, receive, send)
            return
        if self._public(scope["path"]):
            await self.app(scope, receive, send)
            return
        # Websockets (/screencast) carry the token in the same header, or the dashboard's cookie.
        if self.expected is not None and not (hmac.compare_digest(given, self.expected) or self._has_cookie(scope)):
            await self._refuse(scope, receive, send, 401, "missing or wrong token: send Authorization: Bearer <token>",
                               "unauthorized")
            return
        if self.sessions_required and self._session_route(scope):
            await self._refuse(scope, receive, send, 401, "this route needs an agent session (sessions.agent.mode is "
                               "required): send Authorization: Session <token> from POST /sessions", "session_required")
            return
        await self.app(scope, receive, send)

    def _session_route(self, scope: Scope) -> bool:
        return self.session_may is not None and self.session_may(scope.get("method", "GET"), scope["path"], {})

    async def _with_session(self, token: str, scope: Scope, receive: Receive, send: Send) -> None:
        assert self.sessions is not None
        session = self.sessions(token)
        if session is None:
            await self._refuse(scope, receive, send, 401, "invalid, expired or revoked agent session: create one with "
                               "POST /sessions", "bad_session")
            return
        if self.session_may is not None and not self.session_may(scope.get("method", "GET"), scope["path"], session):
            await self._refuse(scope, receive, send, 403, f"an agent session may not call {scope['path']}: dashboard, "
                               "session and instance management need the server token", "session_forbidden")
            return
        scope[SESSION_SCOPE] = session
        reset = current_session.set(session)
        try:
            await self.app(scope, receive, send)
        finally:
            current_session.reset(reset)

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, status: int, message: str, code: str) -> None:
        response = error_response(status, message, code)
        if status == 401:
            response.headers["WWW-Authenticate"] = "Bearer"
        if scope["type"] == "websocket" and "websocket.http.response" not in scope.get("extensions", {}):
            await send({"type": "websocket.close", "code": 1008})
            return
        await response(scope, receive, send)


# -- request guard: who may call, and how much they may send ---------------------------------------


UPLOAD_BODY_SLACK = 64 * 1024  # JSON around an upload's base64 data
# A body up to this size is read (and dropped) before a 413 goes out; a larger one is not worth the
# bandwidth, and the connection closes after the answer.
DRAIN_MAX_BYTES = 32 << 20


async def _drain(receive: Receive) -> None:
    while True:
        message = await receive()
        if message["type"] != "http.request" or not message.get("more_body"):
            return


class BodyTooLarge(PinchtabError):
    status = 413
    default_code = "body_too_large"


def _is_loopback(host: str) -> bool:
    return host in ("localhost", "::1") or host.endswith(".localhost") or (
        host.startswith("127.") and host.replace(".", "").isdigit()
    )


def split_host(value: str) -> str:
    """The host name of a Host header or an origin's authority, lower-case, without the port."""
    value = value.strip().lower()
    if value.startswith("["):  # [::1]:9867
        return value[1 : value.find("]")] if "]" in value else value
    return value.rsplit(":", 1)[0] if value.count(":") == 1 else value


class RequestGuard:
    """Refuses what a local API must not take, before anything else runs (pure ASGI):

    - a ``Host`` that is neither a loopback name, nor ``server.bind``, nor in ``server.allowedHosts``
      (DNS rebinding: evil.example resolving to 127.0.0.1);
    - a request a browser sends on a web page's behalf (``Sec-Fetch-Site`` cross-site/same-site,
      or an ``Origin`` that is not this server) unless its origin is in ``server.allowedOrigins``.
      Programs (curl, the CLI, the client, MCP) send neither header and are not affected;
    - a body over ``server.maxBodyBytes`` (413); an upload's may carry
      ``security.uploadMaxTotalBytes`` of files in base64.
    """

    def __init__(self, app: ASGIApp, config: Any) -> None:
        self.app = app
        server = config.server
        hosts = {h.strip().lower() for h in server.allowed_hosts}
        # Bound beyond loopback (which needs a token), it is reached by any of its names from other
        # machines (a Kubernetes pod IP): the token guards it, not the Host header.
        self.any_host = "*" in hosts or server.bind in ("0.0.0.0", "::", "")
        hosts.add(split_host(server.bind))
        self.hosts = frozenset(hosts)
        self.origins = frozenset(o.strip().rstrip("/").lower() for o in server.allowed_origins)
        self.max_body = server.max_body_bytes
        # An upload's files (up to uploadMaxTotalBytes) travel in base64, 4/3 their size, inside JSON.
        upload_total = min(config.security.upload_max_total_bytes,
                           config.security.upload_max_file_bytes * config.security.upload_max_files)
        self.max_upload_body = max(self.max_body, upload_total * 4 // 3 + UPLOAD_BODY_SLACK)

    def host_allowed(self, host: str) -> bool:
        name = split_host(host)
        return self.any_host or _is_loopback(name) or name in self.hosts

    def origin_refusal(self, host: str, origin: str | None, fetch_site: str | None) -> str | None:
        """Why a browser-sent request is refused, or None when it may go on."""
        if origin is not None and origin.rstrip("/").lower() in self.origins:
            return None
        if fetch_site in ("cross-site", "same-site"):
            return f"it was sent by a web page ({origin or 'no Origin'}, Sec-Fetch-Site: {fetch_site})"
        if origin is None or fetch_site in ("same-origin", "none"):
            return None
        _, _, authority = origin.partition("://")
        if origin != "null" and authority and authority.lower() == host.strip().lower():
            return None  # a page this server served itself (/docs)
        return f"it was sent by a web page (Origin: {origin})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        host = origin = fetch_site = None
        length = None
        for name, value in scope["headers"]:
            if name == b"host":
                host = value.decode("latin-1")
            elif name == b"origin":
                origin = value.decode("latin-1")
            elif name == b"sec-fetch-site":
                fetch_site = value.decode("latin-1").strip().lower()
            elif name == b"content-length":
                length = value
        if host is not None and not self.host_allowed(host):
            message = (f"refused: Host {host!r} is not this machine (a DNS-rebinding guard); call it as 127.0.0.1 "
                       "or localhost, or add the name to server.allowedHosts in the config")
            await self._refuse(scope, receive, send, error_response(403, message, "host_not_allowed"))
            return
        why = self.origin_refusal(host or "", origin, fetch_site)
        if why is not None:
            message = (f"refused: {why}; a web page may not drive the browser. To allow a trusted origin, "
                       "add it to server.allowedOrigins in the config (e.g. [\"http://localhost:3000\"])")
            await self._refuse(scope, receive, send, error_response(403, message, "origin_not_allowed"))
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        upload = scope.get("path", "").endswith("/upload")
        limit = self.max_upload_body if upload else self.max_body
        if length is not None:
            try:
                size = int(length)
            except ValueError:
                size = -1
            if size < 0 or size > limit:
                too_large = error_response(413, self._too_large(limit, upload, size), "body_too_large")
                if 0 < size <= DRAIN_MAX_BYTES:
                    # A client that sends its whole body before it reads (urllib) would get a
                    # connection reset instead of this answer if the body were left unread.
                    await _drain(receive)
                else:
                    too_large.headers["connection"] = "close"
                await too_large(scope, receive, send)
                return
            await self.app(scope, receive, send)
            return
        await self.app(scope, self._counting(receive, limit, upload), send)

    def _too_large(self, limit: int, upload: bool, size: int | None = None) -> str:
        got = f"{size:,} bytes" if size and size > 0 else "too large"
        key = ("security.uploadMaxTotalBytes in base64, or server.maxBodyBytes" if upload
               else "server.maxBodyBytes")
        return f"the request body is {got}; the limit is {limit:,} bytes ({key})"

    def _counting(self, receive: Receive, limit: int, upload: bool) -> Receive:
        """A chunked body: count as it arrives, stop at the limit."""
        seen = 0

        async def counted() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise BodyTooLarge(self._too_large(limit, upload))
            return message

        return counted

    async def _refuse(self, scope: Scope, receive: Receive, send: Send, response: Response) -> None:
        log.warning("refused %s %s: %s", scope.get("method", "WS"), scope.get("path"), bytes(response.body).decode()[:200])
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})
            return
        await response(scope, receive, send)
