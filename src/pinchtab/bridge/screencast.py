"""The bridge's end of ``/screencast``: a tab's frames, one binary websocket message each.

The viewer's messages are read only to notice that it left (input for a take-over goes through
``POST /action``); when it leaves or the tab closes, its subscription ends, and the tab's
screencast stops with the last one.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from pinchtab.api.sockets import SocketHandler, refuse
from pinchtab.api.route import Socket
from pinchtab.browser.media.frames import Subscription
from pinchtab.browser.service.browser_service import BrowserService
from pinchtab.errors import PinchtabError

IDLE_CHECK_S = 5.0  # how often a quiet stream checks that its tab is still there


def socket_handler_for(service: BrowserService) -> Any:
    def lookup(socket: Socket) -> SocketHandler:
        async def serve(req: Any, websocket: WebSocket) -> None:
            try:
                sub = await getattr(service, socket.name)(req)
            except PinchtabError as exc:
                await refuse(websocket, exc)
                return
            try:
                await websocket.accept()
                await pump(sub, websocket)
            finally:
                await sub.close()

        return serve

    return lookup


async def pump(sub: Subscription, websocket: WebSocket) -> None:
    left = asyncio.ensure_future(_until_closed(websocket))
    try:
        while not left.done():
            frame_task = asyncio.ensure_future(sub.next(IDLE_CHECK_S))
            await asyncio.wait({frame_task, left}, return_when=asyncio.FIRST_COMPLETED)
            if not frame_task.done():
                frame_task.cancel()
                break
            frame = frame_task.result()
            if frame is None:
                if sub.source.tab.closed:
                    await websocket.close(code=1001, reason="the tab closed")
                    break
                continue
            await websocket.send_bytes(frame.data)
    except (WebSocketDisconnect, RuntimeError, OSError):
        pass  # the viewer went away mid-send
    finally:
        left.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await left


async def _until_closed(websocket: WebSocket) -> None:
    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                return
