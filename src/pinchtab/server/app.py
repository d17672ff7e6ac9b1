"""The server app: profiles, instances, merged tabs and health; the routing proxy in front."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from typing import Annotated, Any, Literal

from fastapi import Body, FastAPI
from pydantic import BaseModel, ConfigDict, Field
from pydantic.alias_generators import to_camel
from starlette.responses import Response

import pinchtab
from pinchtab.config import Config
from pinchtab.errors import BrowserError, Conflict, NotReady, PinchtabError
from pinchtab.server.instances import InstanceManager
from pinchtab.server.profiles import ProfileStore
from pinchtab.server.proxy import ProxyMiddleware, Router, make_client
from pinchtab.server.routing import TabRoutes
from pinchtab.server.upstream import Upstream
from pinchtab.web import FastJSON, JSONBodies, TokenAuth, install_error_handlers

log = logging.getLogger("pinchtab.server")


class _Body(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class ProfileCreate(_Body):
    name: str = Field(..., description="Unique name, e.g. 'work'.")
    description: str | None = None


class InstanceStart(_Body):
    profile_id: str | None = Field(None, description="Profile id (or name); omitted: a temporary profile deleted on stop.")
    mode: Literal["headless", "headed"] | None = Field(None, description="Default: browser.headless from the config.")


class TabOpen(_Body):
    url: str | None = None


DESCRIPTION = """Browser control for AI agents, server mode: persistent profiles and several browser
instances (one `pinchtab bridge` with its own Chromium each).

Every tab route of the bridge API works here too: `/tabs/{id}/...` goes to the instance that owns
the tab; the shorthand routes (`/navigate`, `/snapshot`, `/find`, `/action`, ...) go to the instance
owning `tabId` (body or `?tabId=`), else to the default instance."""


# Bridge routes the server answers itself (its own /health and /tabs) or does not offer.
_NOT_PROXIED = {"/health", "/tabs", "/browser/restart"}


def _openapi_with_bridge_routes(app: FastAPI) -> dict[str, Any]:
    if app.openapi_schema:
        return app.openapi_schema
    from fastapi.openapi.utils import get_openapi

    from pinchtab.bridge.app import build_routes

    schema = get_openapi(title=app.title, version=app.version, description=app.description, routes=app.routes)
    docs = FastAPI()
    build_routes(docs, None)  # type: ignore[arg-type]  # only the signatures are read, never called
    bridge = docs.openapi()
    for path, item in bridge["paths"].items():
        if path not in _NOT_PROXIED:
            schema["paths"].setdefault(path, item)
    components = schema.setdefault("components", {}).setdefault("schemas", {})
    for name, definition in bridge.get("components", {}).get("schemas", {}).items():
        components.setdefault(name, definition)
    app.openapi_schema = schema
    return schema


def create_app(config: Config, *, default_instance: bool | None = None) -> FastAPI:
    start_default = config.server.default_instance if default_instance is None else default_instance
    client = make_client()
    profiles = ProfileStore(config.server.state_dir)
    routes = TabRoutes()
    manager = InstanceManager(config, profiles, client, on_tabs_lost=routes.forget_instance)
    router = Router(manager, routes, client)
    upstream = Upstream()

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        manager.sweep()
        manager.start_monitor()
        if start_default:
            try:
                inst = await manager.start_default()
                if inst.status != "running":
                    log.error("the default instance did not start: %s", inst.error)
            except PinchtabError as exc:
                log.error("the default instance did not start: %s", exc.message)
        try:
            yield
        finally:
            await manager.close()
            await client.aclose()
            await upstream.close()

    app = FastAPI(title="pinchtab server", version=pinchtab.__version__, description=DESCRIPTION, lifespan=lifespan)
    app.state.manager = manager
    app.state.routes = routes
    app.state.router = router
    install_error_handlers(app)

    @app.get("/health", summary="Is the server up? Counts running instances and their tabs")
    async def health() -> Response:
        running = manager.running()
        default = manager.default_instance()
        return FastJSON({
            "status": "ok", "mode": "server", "version": pinchtab.__version__,
            "instances": len(running), "tabs": sum(i.tabs for i in running),
            "defaultInstance": default.id if default else None,
        })

    @app.get("/tabs", summary="Every instance's tabs, each with its instanceId")
    async def tabs() -> Response:
        return FastJSON({"tabs": await router.all_tabs()})

    # -- profiles ---------------------------------------------------------------------------------

    def profile_json(p: Any) -> dict[str, Any]:
        holder = manager.using_profile(p.id)
        out = p.to_dict()
        out["running"] = holder is not None and holder.status in ("starting", "running")
        if holder is not None:
            out["instanceId"] = holder.id
        return out

    @app.get("/profiles", summary="Persistent profiles (Chrome user-data dirs)")
    async def list_profiles() -> Response:
        return FastJSON({"profiles": [profile_json(p) for p in profiles.list()]})

    @app.post("/profiles", status_code=201, summary="Create a profile")
    async def create_profile(req: ProfileCreate) -> Response:
        return FastJSON(profile_json(profiles.create(req.name, req.description)), status_code=201)

    @app.get("/profiles/{profile_id}", summary="One profile (by id or name)")
    async def get_profile(profile_id: str) -> Response:
        return FastJSON(profile_json(profiles.get(profile_id)))

    @app.delete("/profiles/{profile_id}", summary="Delete a profile and its data (409 while an instance uses it)")
    async def delete_profile(profile_id: str) -> Response:
        profile = profiles.get(profile_id)
        holder = manager.using_profile(profile.id)
        if holder is not None:
            raise Conflict(
                f"profile {profile.name!r} is in use by instance {holder.id} ({holder.status}); "
                f"stop it first with POST /instances/{holder.id}/stop",
                "profile_in_use",
            )
        profiles.delete(profile.id)
        return FastJSON({"deleted": True, "id": profile.id, "name": profile.name})

    # -- instances --------------------------------------------------------------------------------

    @app.get("/instances", summary="Instances with their status, port and pid")
    async def list_instances() -> Response:
        return FastJSON({"instances": [i.to_dict() for i in manager.list()]})

    @app.get("/instances/{instance_id}", summary="One instance")
    async def get_instance(instance_id: str) -> Response:
        return FastJSON(manager.get(instance_id).to_dict())

    @app.post("/instances/start", summary="Start an instance (waits until it answers)")
    async def start_instance(req: Annotated[InstanceStart | None, Body()] = None) -> Response:
        req = req or InstanceStart()
        inst = await manager.start(req.profile_id, req.mode)
        if inst.status != "running":
            error = inst.error or f"instance ended up {inst.status}"
            await manager.stop(inst.id)
            raise BrowserError(f"the instance did not start: {error}", "instance_start_failed")
        return FastJSON(inst.to_dict(), status_code=201)

    @app.post("/instances/{instance_id}/stop", summary="Stop an instance (its bridge and Chromium)")
    async def stop_instance(instance_id: str) -> Response:
        inst = await manager.stop(instance_id)
        return FastJSON(inst.to_dict())

    async def restart(instance_id: str) -> Response:
        inst = await manager.restart(instance_id)
        if inst.status != "running":
            raise BrowserError(f"instance {inst.id} did not start: {inst.error}", "instance_start_failed")
        return FastJSON(inst.to_dict())

    app.add_api_route("/instances/{instance_id}/restart", restart, methods=["POST"],
                      summary="Restart an instance in place (same id and profile); also brings back one in error")
    app.add_api_route("/instances/{instance_id}/start", restart, methods=["POST"], operation_id="start_again",
                      summary="Same as /restart")

    @app.get("/instances/{instance_id}/tabs", summary="The tabs of one instance")
    async def instance_tabs(instance_id: str) -> Response:
        inst = manager.get(instance_id)
        await manager.wait_ready(inst)
        tabs = [t for t in await router.all_tabs() if t.get("instanceId") == inst.id]
        return FastJSON({"tabs": tabs})

    @app.post("/instances/{instance_id}/tabs/open", summary="Open a tab in that instance")
    async def open_tab(instance_id: str, req: Annotated[TabOpen | None, Body()] = None) -> Response:
        inst = manager.get(instance_id)
        await manager.wait_ready(inst)
        if not inst.process_alive or inst.status != "running":
            raise NotReady(f"instance {inst.id} is {inst.status}; restart it with POST /instances/{inst.id}/restart",
                           "instance_unavailable")
        body: dict[str, Any] = {"action": "new"}
        if req is not None and req.url:
            body["url"] = req.url
        res = await client.post(f"{inst.url}/tab", json=body, headers=manager.auth)
        data = res.json()
        if res.status_code == 200 and isinstance(data, dict) and data.get("tabId"):
            routes.learn(data["tabId"], inst.id)
            data["instanceId"] = inst.id
        return FastJSON(data, status_code=res.status_code)

    @app.get("/instances/{instance_id}/logs", summary="The last lines the instance's bridge logged")
    async def instance_logs(instance_id: str, lines: int = 50) -> Response:
        inst = manager.get(instance_id)
        return FastJSON({"id": inst.id, "log": manager.log_tail(inst, max(1, min(lines, 1000)), joiner="\n")})

    # The proxied routes are served by ProxyMiddleware; /openapi.json documents them with the
    # bridge's own route definitions, so both describe the same parameters.
    app.openapi = lambda: _openapi_with_bridge_routes(app)  # type: ignore[method-assign]

    app.add_middleware(JSONBodies)
    app.add_middleware(ProxyMiddleware, router=router, upstream=upstream)
    app.add_middleware(TokenAuth, token=config.server.token)
    return app
