"""The server app: profiles, instances, merged tabs and health; the routing proxy in front."""

from __future__ import annotations

import contextlib
import functools
import logging
import os
from collections.abc import AsyncIterator
from typing import Any

from fastapi import FastAPI

import pinchtab
from pinchtab.config import Config
from pinchtab.secrets import Secrets, redact_logs
from pinchtab.dashboard import COOKIE, Dashboard, cookie_value, session_may
from pinchtab.dashboard.assets import PUBLIC_PREFIX, mount_dashboard
from pinchtab.dashboard.recorder import ActivityRecorder
from pinchtab.errors import BadRequest, BrowserError, Conflict, NotFound, NotReady, PinchtabError
from pinchtab.server.attached import Attachments, is_attached_bridge
from pinchtab.server.discovery import Discovery
from pinchtab.server.health import log_tail
from pinchtab.server.instances import InstanceManager
from pinchtab.server.profiles import ProfileStore
from pinchtab.server.screencast import socket_handler_for, socket_paths
from pinchtab.server.proxy import ProxyMiddleware, TabLocator
from pinchtab.server.supervisor import Supervisor
from pinchtab.server.tab_owners import TabOwners
from pinchtab.server.upstream import Upstream
from pinchtab.api import SOCKETS, Reply, Route, proxied_routes, server_routes
from pinchtab.api.dispatch import Handler, mount
from pinchtab.api.openapi import build_openapi
from pinchtab.api.sockets import mount_sockets
from pinchtab.models import attach as a
from pinchtab.models import orchestrator as o
from pinchtab.web import RequestGuard, TokenAuth, install_error_handlers

log = logging.getLogger("pinchtab.server")

DASHBOARD_PUBLIC = frozenset({"/", "/dashboard", "/api/auth/login", "/api/auth/logout"})


DESCRIPTION = """Browser control for AI agents, server mode: persistent profiles and several browser
instances (one `pinchtab bridge` with its own Chromium each).

Every tab route of the bridge API works here too: `/tabs/{id}/...` goes to the instance that owns
the tab; the shorthand routes (`/navigate`, `/snapshot`, `/find`, `/action`, ...) go to the instance
owning `tabId` (body or `?tabId=`), else to the default instance."""


def create_app(config: Config, *, default_instance: bool | None = None, manager: InstanceManager | None = None) -> FastAPI:
    """The server app. ``manager``: one made before this module loaded, whose default instance may be
    starting already (``pinchtab.server.boot``)."""
    start_default = config.server.default_instance if default_instance is None else default_instance
    if manager is None:
        profiles = ProfileStore(config.server.state_dir, config.server.max_profiles)
        manager = InstanceManager(config, profiles, Upstream(config.security.attach.ca_file))
    # One client to the bridges for the proxy and the server's own calls (upstream.py).
    upstream, profiles = manager.client, manager.profiles
    routes = TabOwners()
    manager.on_tabs_lost = routes.forget_instance
    supervisor = Supervisor(manager, routes, config.instances.restart)
    manager.on_bridge_exit = supervisor.bridge_exited
    router = TabLocator(manager, routes, upstream)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.sweep()
        manager.start_monitor()
        discovery.start()
        if start_default:
            try:
                inst = await manager.start_default()
                await manager.wait_ready(inst)
                if inst.status != "running":
                    log.error("the default instance did not start: %s", inst.error)
            except PinchtabError as exc:
                handlers.default_failure = exc.message  # no instance to read it from: /health says it
                log.error("the default instance did not start: %s", exc.message)
        try:
            yield
        finally:
            await discovery.close()
            await dashboard.close()
            await supervisor.close()
            await manager.close()
            await upstream.close()

    app = FastAPI(title="pinchtab server", version=pinchtab.__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.manager = manager
    redact_logs(Secrets(config.security.secrets))
    app.state.routes = routes
    app.state.router = router
    install_error_handlers(app)
    attachments = Attachments(manager, upstream, config.security.attach)
    discovery = Discovery(config.discovery, attachments)
    handlers = ServerHandlers(manager, profiles, router, routes, upstream, attachments, supervisor)
    handlers.default_wanted = start_default
    dashboard = Dashboard(config, manager, router)

    def lookup(route: Route) -> Handler:
        return getattr(handlers, route.name, None) or getattr(dashboard.handlers, route.name)  # type: ignore[no-any-return]

    own = server_routes()
    mount(app.router, own, lookup, config.security)
    mount_sockets(app.router, SOCKETS, socket_handler_for(router, upstream), config.security, socket_paths)
    mount_dashboard(app.router)
    # The proxied routes are served by ProxyMiddleware; /openapi.json documents them from the same
    # table as the bridge's, so both describe the same parameters.
    # Built on first use: ~0.1 s of pydantic schema generation that start-up need not wait for.
    app.openapi = functools.cache(  # type: ignore[method-assign]
        lambda: build_openapi(own + proxied_routes(), title=app.title, version=app.version, description=DESCRIPTION))
    app.add_middleware(ProxyMiddleware, router=router, upstream=upstream)
    if dashboard.enabled:
        app.add_middleware(ActivityRecorder, log=dashboard.activity)
    # The dashboard page and its login are public; the API takes the token or the login's cookie.
    token = config.server.token
    sessions = dashboard.sessions
    app.add_middleware(TokenAuth, token=token, public=DASHBOARD_PUBLIC, public_prefix=PUBLIC_PREFIX + "/",
                       cookie=(COOKIE, cookie_value(token)) if token else None,
                       sessions=sessions.authenticate if sessions else None, session_may=session_may,
                       sessions_required=dashboard.sessions_required)
    app.add_middleware(RequestGuard, config=config)  # outermost: Host, Origin, body size
    return app


class ServerHandlers:
    """The server's own routes, one method per route name (``pinchtab.api.routes.orchestrator``)."""

    def __init__(self, manager: InstanceManager, profiles: ProfileStore, router: TabLocator, routes: TabOwners,
                 client: Upstream, attachments: Attachments, supervisor: Supervisor) -> None:
        self.supervisor = supervisor
        self.manager = manager
        self.attachments = attachments
        self.profile_store = profiles
        self.router = router
        self.routes = routes
        self.client = client
        self.default_wanted = False  # server.defaultInstance: /health is down while that instance is
        self.default_failure: str | None = None  # why it could not even be created

    def default_down(self) -> str | None:
        """Why the default instance (when the server runs one) cannot serve: it failed to start,
        its bridge or browser died, or it is (re)starting. None while it runs, and once someone
        stopped it on purpose (POST /instances/{id}/stop): that is not a fault of the server."""
        if not self.default_wanted:
            return None
        inst = next((i for i in self.manager.list() if i.default), None)
        if inst is None:  # it could not be created, or it was stopped (and so removed) on purpose
            return self.default_failure
        if inst.status not in ("error", "starting"):
            return None
        return f"the default instance {inst.id} is {inst.status}" + (f": {inst.error}" if inst.error else "")

    async def health(self) -> Reply:
        """200 while the server can serve a browser: 503 with ``reason`` while its default instance
        is down (starting, failed, crashed, stopped), so probes and autostart see it."""
        running = self.manager.running()
        default = self.manager.default_instance()
        reason = self.default_down()
        out = {
            "status": "down" if reason else "ok", "mode": "server", "version": pinchtab.__version__,
            "pid": os.getpid(), "instances": len(running), "tabs": sum(i.tabs for i in running),
            "defaultInstance": default.id if default else None,
        }
        if reason:
            out["reason"] = reason
        return Reply(out, 503 if reason else 200)

    async def tabs(self) -> dict[str, Any]:
        return (await self.router.all_tabs()).answer()

    # -- profiles ---------------------------------------------------------------------------------

    def _profile_json(self, p: Any) -> dict[str, Any]:
        holder = self.manager.using_profile(p.id)
        out = p.to_dict()
        out["running"] = holder is not None and holder.status in ("starting", "running")
        if holder is not None:
            out["instanceId"] = holder.id
        return out

    async def profiles(self) -> dict[str, Any]:
        return {"profiles": [self._profile_json(p) for p in self.profile_store.list()]}

    async def create_profile(self, req: o.ProfileCreate) -> dict[str, Any]:
        return self._profile_json(self.profile_store.create(req.name, req.description))

    async def profile(self, req: o.ProfileRef) -> dict[str, Any]:
        return self._profile_json(self.profile_store.get(req.profile_id))

    async def profile_instance(self, req: o.ProfileRef) -> dict[str, Any]:
        """PinchTab's answer: the profile's running (or starting) instance, else "stopped"; an
        unknown profile is a stopped one under the name asked for."""
        try:
            profile = self.profile_store.get(req.profile_id)
        except NotFound:
            return {"name": req.profile_id, "running": False, "status": "stopped", "port": ""}
        holder = self.manager.using_profile(profile.id)
        if holder is None or holder.status not in ("starting", "running"):
            return {"name": profile.name, "running": False, "status": "stopped", "port": ""}
        return {"name": profile.name, "running": holder.status == "running", "status": holder.status,
                "port": str(holder.port or ""), "id": holder.id, "url": holder.url}

    async def delete_profile(self, req: o.ProfileRef) -> dict[str, Any]:
        profile = self.profile_store.get(req.profile_id)
        holder = self.manager.using_profile(profile.id)
        if holder is not None:
            raise Conflict(
                f"profile {profile.name!r} is in use by instance {holder.id} ({holder.status}); "
                f"stop it first with POST /instances/{holder.id}/stop",
                "profile_in_use",
            )
        self.profile_store.delete(profile.id)
        return {"deleted": True, "id": profile.id, "name": profile.name}

    # -- instances --------------------------------------------------------------------------------

    async def instances(self) -> dict[str, Any]:
        return {"instances": [i.to_dict() for i in self.manager.list()]}

    async def instance(self, req: o.InstanceRef) -> dict[str, Any]:
        return self.manager.get(req.instance_id).to_dict()

    async def start_instance(self, req: o.InstanceStart) -> dict[str, Any]:
        inst = await self.manager.start(req.profile_id, req.mode)
        if inst.status != "running":
            error = inst.error or f"instance ended up {inst.status}"
            await self.manager.stop(inst.id)
            raise BrowserError(f"the instance did not start: {error}", "instance_start_failed")
        return inst.to_dict()

    async def stop_instance(self, req: o.InstanceRef) -> dict[str, Any]:
        if is_attached_bridge(self.manager.get(req.instance_id)):
            return (await self.attachments.detach(req.instance_id)).to_dict()  # it is not ours to stop
        self.supervisor.cancel(req.instance_id)
        return (await self.manager.stop(req.instance_id)).to_dict()

    async def restart_instance(self, req: o.InstanceRef) -> dict[str, Any]:
        if is_attached_bridge(self.manager.get(req.instance_id)):
            raise Conflict(f"instance {req.instance_id} is an attached bridge, which this server does not start: restart "
                           "it on its host (the health monitor then marks it running) or detach it", "attached_instance")
        self.supervisor.cancel(req.instance_id)
        inst = await self.manager.restart(req.instance_id)
        if inst.status != "running":
            raise BrowserError(f"instance {inst.id} did not start: {inst.error}", "instance_start_failed")
        return inst.to_dict()

    start_stopped_instance = restart_instance

    async def instance_tabs(self, req: o.InstanceRef) -> dict[str, Any]:
        inst = self.manager.get(req.instance_id)
        await self.manager.wait_ready(inst)
        listing = await self.router.all_tabs()
        failed = next((u["error"] for u in listing.unlisted if u["instanceId"] == inst.id), None)
        if failed is not None:
            raise NotReady(f"instance {inst.id}: {failed}", "instance_unavailable")
        return {"tabs": [t for t in listing.tabs if t.get("instanceId") == inst.id]}

    async def open_tab_in_instance(self, req: o.InstanceTabOpen) -> Reply:
        inst = self.manager.get(req.instance_id)
        await self.manager.wait_ready(inst)
        if not inst.process_alive or inst.status != "running":
            raise NotReady(f"instance {inst.id} is {inst.status}; restart it with POST /instances/{inst.id}/restart",
                           "instance_unavailable")
        body: dict[str, Any] = {"action": "new"}
        if req.url:
            body["url"] = req.url
        status, data = await self.client.post_json(inst.url, "/tab", body, self.manager.auth_header(inst))
        if status == 200 and isinstance(data, dict) and data.get("tabId"):
            self.routes.learn(data["tabId"], inst.id)
            data["instanceId"] = inst.id
        return Reply(data, status)

    # -- attached instances (attached.py) ---------------------------------------------------------

    async def attach_bridge(self, req: a.AttachBridge) -> Any:
        url = req.base_url or req.url
        if not url:
            raise BadRequest("baseUrl (or url) is required: the bridge's origin, e.g. http://10.0.12.24:9867", "missing_baseUrl")
        inst, created = await self.attachments.attach_bridge(url, req.bridge_token, req.name)
        return inst.to_dict() if created else Reply(inst.to_dict(), 200)

    async def attach_chrome(self, req: a.AttachChrome) -> dict[str, Any]:
        return (await self.attachments.attach_cdp(req.cdp_url, req.name)).to_dict()

    async def detach_instance(self, req: o.InstanceRef) -> dict[str, Any]:
        return (await self.attachments.detach(req.instance_id)).to_dict()

    async def instance_logs(self, req: o.InstanceLogs) -> dict[str, Any]:
        inst = self.manager.get(req.instance_id)
        return {"id": inst.id, "log": log_tail(inst, req.lines, joiner="\n")}
