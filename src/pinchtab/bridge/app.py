"""The bridge: the PinchTab HTTP API over one browser. Every bridge route of ``pinchtab.api`` is
served by the ``BrowserService`` method of the same name; this module only wires them up."""

from __future__ import annotations

import contextlib
import functools
import sys
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

import pinchtab
from pinchtab import heap
from pinchtab.api import SOCKETS, Route, bridge_routes
from pinchtab.api.dispatch import Handler, mount
from pinchtab.api.openapi import build_openapi
from pinchtab.api.sockets import mount_sockets
from pinchtab.bridge.screencast import socket_handler_for
from pinchtab.browser.core.browser import Browser
from pinchtab.browser.service.browser_service import BrowserService
from pinchtab.config import Config
from pinchtab.secrets import redact_logs
from pinchtab.web import RequestGuard, TokenAuth, install_error_handlers

DESCRIPTION = "Browser control for AI agents: one Chromium over CDP behind the PinchTab HTTP API."


def handler_for(service: BrowserService) -> Any:
    def lookup(route: Route) -> Handler:
        handler = getattr(service, route.name, None)
        if handler is None:
            raise RuntimeError(f"BrowserService has no method for route {route.name!r} ({route.path})")
        if route.leased:
            async def leased(req: Any, handler: Handler = handler) -> Any:
                await service.check_lease(req.tab_id, req.owner)
                return await handler(req)

            handler = leased

        async def named(*args: Any, handler: Handler = handler) -> Any:
            return service.public_tab_id(await handler(*args))

        return named

    return lookup


def create_app(config: Config, browser: Browser | None = None) -> FastAPI:
    """The bridge app. It starts its browser on startup and stops it on shutdown."""
    browser = browser or Browser(config)
    service = BrowserService(browser, config)
    redact_logs(service.secrets)
    if config.find.semantic != "off" or "pinchtab.find.semantic.model" in sys.modules:
        # Off (the default) needs no set-up, and the module's numpy need not load at start.
        from pinchtab.find.semantic import model as semantic_model

        semantic_model.configure(config.find.semantic, config.server.state_dir)
    heap.set_top_pad(config.find.heap_pad_mb)  # before find's first index build (pinchtab.heap)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await browser.start()
        try:
            yield
        finally:
            await browser.stop()

    app = FastAPI(title="pinchtab bridge", version=pinchtab.__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.browser = browser
    app.state.service = service
    install_error_handlers(app)
    routes = bridge_routes()
    mount(app.router, routes, handler_for(service), config.security)
    mount_sockets(app.router, SOCKETS, socket_handler_for(service), config.security)
    # Built on first use: pydantic schema generation that start-up need not wait for.
    app.openapi = functools.cache(  # type: ignore[method-assign]
        lambda: build_openapi(routes, title=app.title, version=app.version, description=DESCRIPTION))
    app.add_middleware(TokenAuth, token=config.server.token)
    app.add_middleware(RequestGuard, config=config)  # outermost: Host, Origin, body size
    return app
