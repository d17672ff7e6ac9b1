"""Serving the table's websockets (``api.SOCKETS``): the query becomes the socket's model and its
gate is checked before the upgrade is accepted. A refusal is an HTTP answer in our error shape when
the ASGI server can send one (the ``websocket.http.response`` extension, uvicorn's), else a close
with the policy-violation code. A plain GET of the path (no upgrade) answers the gate's 403, or 426
saying how to connect."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Router
from starlette.websockets import WebSocket

from pinchtab.api.dispatch import check_gate, describe_validation
from pinchtab.api.route import Socket
from pinchtab.errors import BadRequest, PinchtabError
from pinchtab.web import FastJSON, error_response

SocketHandler = Callable[[BaseModel, WebSocket], Awaitable[None]]


def mount_sockets(router: Router, sockets: tuple[Socket, ...], handler_for: Callable[[Socket], SocketHandler],
                  security: Any, paths: Callable[[Socket], tuple[str, ...]] = lambda s: (s.path,)) -> None:
    """Add each socket at ``paths(socket)``; ``handler_for(socket)`` serves an accepted request."""
    for socket in sockets:
        ws_endpoint = socket_endpoint(socket, handler_for(socket), security)
        http_endpoint = plain_get_endpoint(socket, security)
        for path in paths(socket):
            router.add_websocket_route(path, ws_endpoint, name=socket.name)
            router.add_route(path, http_endpoint, methods=["GET"], name=f"{socket.name}_http", include_in_schema=False)


def socket_request(socket: Socket, query: Mapping[str, str], path_params: Mapping[str, str] | None = None) -> BaseModel:
    data: dict[str, Any] = {**query, **(path_params or {})}
    try:
        return socket.request.model_validate(data)
    except ValidationError as exc:
        message, code = describe_validation(exc, socket.request)
        raise BadRequest(message, code) from None


async def refuse(websocket: WebSocket, exc: PinchtabError) -> None:
    if "websocket.http.response" in websocket.scope.get("extensions", {}):
        await websocket.send_denial_response(FastJSON(exc.to_dict(), status_code=exc.status))
    else:
        await websocket.close(code=1008, reason=exc.message[:120])


def socket_endpoint(socket: Socket, handler: SocketHandler, security: Any) -> Callable[[WebSocket], Awaitable[None]]:
    async def endpoint(websocket: WebSocket) -> None:
        try:
            check_gate(socket.gate, security)
            req = socket_request(socket, websocket.query_params, websocket.path_params)
        except PinchtabError as exc:
            await refuse(websocket, exc)
            return
        await handler(req, websocket)

    endpoint.__name__ = socket.name
    return endpoint


def plain_get_endpoint(socket: Socket, security: Any) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            check_gate(socket.gate, security)
        except PinchtabError as exc:
            return FastJSON(exc.to_dict(), status_code=exc.status)
        answer = error_response(426, f"{socket.path} is a websocket: connect to ws://{request.url.netloc}"
                                f"{request.url.path} with an Upgrade request", "websocket_required")
        answer.headers["Upgrade"] = "websocket"
        return answer

    return endpoint
