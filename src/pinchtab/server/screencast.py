"""The server's end of ``/screencast``: the viewer's websocket relayed to the bridge of the
instance that shows the tab (``/screencast?tabId=``: the tab's owner, else the default instance;
``/instances/{id}/screencast`` and PinchTab's ``/instances/{id}/proxy/screencast``: that instance).

Frames pass through as they come, one message each; the server keeps no frame of its own, so a
slow viewer slows only its own relay (the bridge drops that viewer's oldest frames).
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any
from urllib.parse import urlencode

import aiohttp
from starlette.websockets import WebSocket, WebSocketDisconnect

from pinchtab.api.route import Socket
from pinchtab.api.sockets import SocketHandler, refuse
from pinchtab.errors import NotFound, NotReady, PinchtabError
from pinchtab.server.bridge_client import UpstreamError
from pinchtab.server.instance import Instance
from pinchtab.server.proxy import TabLocator
from pinchtab.server.upstream import Upstream


def socket_paths(socket: Socket) -> tuple[str, ...]:
    return (socket.path, f"/instances/{{instance_id}}{socket.path}", f"/instances/{{instance_id}}/proxy{socket.path}")


def socket_handler_for(router: TabLocator, upstream: Upstream) -> Any:
    def lookup(socket: Socket) -> SocketHandler:
        async def serve(req: Any, websocket: WebSocket) -> None:
            try:
                inst = await _instance(router, websocket.path_params.get("instance_id"), req.tab_id)
                query = urlencode(req.model_dump(by_alias=True, exclude_none=True))
                target = socket.path + (f"?{query}" if query else "")
                bridge = await upstream.websocket(inst.url, target, router.manager.auth_header(inst))
            except UpstreamError as exc:
                status = exc.status if exc.status in (400, 401, 403, 404, 409, 423) else 503
                await refuse(websocket, PinchtabError(f"the instance's bridge: {exc}", "instance_refused", status=status))
                return
            except PinchtabError as exc:
                await refuse(websocket, exc)
                return
            try:
                await websocket.accept()
                await relay(websocket, bridge)
            finally:
                await bridge.close()

        return serve

    return lookup


async def _instance(router: TabLocator, instance_id: str | None, tab_id: str | None) -> Instance:
    if instance_id:
        inst = router.manager.instances.get(instance_id)
        if inst is None or inst.status != "running":
            raise NotFound(f"instance {instance_id} not found or not running; GET /instances lists them",
                           "instance_not_found")
        return inst
    if tab_id:
        return await router.instance_for_tab(router.routes.current_id(tab_id))
    inst = await router.default_instance()
    if inst.status != "running":
        raise NotReady(f"instance {inst.id} is {inst.status}", "instance_unavailable")
    return inst


async def relay(websocket: WebSocket, bridge: aiohttp.ClientWebSocketResponse) -> None:
    """Messages both ways until either side closes."""

    async def down() -> None:
        async for message in bridge:
            if message.type == aiohttp.WSMsgType.BINARY:
                await websocket.send_bytes(message.data)
            elif message.type == aiohttp.WSMsgType.TEXT:
                await websocket.send_text(message.data)
            else:
                return

    async def up() -> None:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
            if message.get("bytes") is not None:
                await bridge.send_bytes(message["bytes"])
            elif message.get("text") is not None:
                await bridge.send_str(message["text"])

    tasks = [asyncio.ensure_future(down()), asyncio.ensure_future(up())]
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, WebSocketDisconnect, RuntimeError, aiohttp.ClientError,
                                     ConnectionError):
                await task
        with contextlib.suppress(RuntimeError, WebSocketDisconnect):
            await websocket.close()
