"""The routing proxy: tab routes to the instance owning the tab, shorthand routes to the instance
owning ``tabId`` (or the default instance).

It is plain ASGI in front of the server's FastAPI app, so a proxied request costs one dict lookup,
one forwarded HTTP request over a kept-alive connection, and no JSON work except reading a
``tabId`` from a small request body or from the small answers that name a tab. Response bodies
pass through as bytes with their status and headers; big ones (raw screenshots, PDFs) stream.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import time
from dataclasses import dataclass
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from pinchtab.errors import NotFound, NotReady, PinchtabError, Timeout
from pinchtab.models import MAX_WAIT_MS
from pinchtab.models.audit import AUDIT_PAGE_TIMEOUT_S, AUDIT_RUN_TIMEOUT_S
from pinchtab.models.scrape import SCRAPE_RUN_TIMEOUT_S
from pinchtab.server.instance import Instance
from pinchtab.server.instances import InstanceManager
from pinchtab.server.tab_owners import (PER_INSTANCE, TAB_ANSWERING, TabOwners, closes_tab, is_shorthand, tab_id_in_request,
                                        tab_in_response, url_in_request)
from pinchtab.server.upstream import Upstream, UpstreamError
from pinchtab.web import error_response

log = logging.getLogger("pinchtab.server.proxy")

# Answers up to this size are read whole and sent in one piece; bigger ones stream.
BUFFER_LIMIT = 1 << 20
HOP_BY_HOP = frozenset({b"connection", b"keep-alive", b"transfer-encoding", b"te", b"trailer", b"upgrade",
                        b"proxy-authenticate", b"proxy-authorization", b"server", b"date"})
FORWARDED_REQUEST_HEADERS = frozenset({b"accept", b"accept-encoding", b"content-type", b"user-agent", b"x-owner"})


@dataclass
class TabListing:
    """The tabs of every live instance, and the instances that could not list theirs (frozen,
    restarting): an empty list must not pass for "no tabs"."""

    tabs: list[dict[str, Any]]
    unlisted: list[dict[str, str]]

    def answer(self) -> dict[str, Any]:
        return {"tabs": self.tabs, "unlisted": self.unlisted} if self.unlisted else {"tabs": self.tabs}


class TabLocator:
    """Finds the instance for a tab, refreshing the routing table from the instances on a miss."""

    def __init__(self, manager: InstanceManager, routes: TabOwners, client: Upstream) -> None:
        self.manager = manager
        self.routes = routes
        self.client = client
        self._refreshing: asyncio.Task[TabListing] | None = None

    async def instance_for_tab(self, tab_id: str) -> Instance:
        iid = self.routes.owner(tab_id)
        if iid is not None:
            inst = self.manager.instances.get(iid)
            if inst is not None:  # not running: _forward says so (503), the tab is still its own
                return inst
            self.routes.forget(tab_id)
        restoring = next((i for i in self.manager.instances.values() if tab_id in i.restoring), None)
        if restoring is not None:
            return restoring  # _forward answers 503 tab_restoring
        await self.all_tabs()
        iid = self.routes.owner(tab_id)
        inst = self.manager.instances.get(iid) if iid else None
        if inst is None:
            raise NotFound(f"tab {tab_id} not found in any running instance; GET /tabs lists the open tabs", "tab_not_found")
        return inst

    async def default_instance(self) -> Instance:
        inst = self.manager.default_instance()
        if inst is None:
            broken = next((i for i in self.manager.instances.values() if i.default and i.error), None)
            why = f" (the default instance {broken.id} failed: {broken.error})" if broken else ""
            raise NotReady(
                f"no instance is running{why}: start one with POST /instances/start "
                "{\"profileId\": \"...\"} (or restart the default one), or name a tab with tabId",
                "no_instance",
            )
        await self.manager.wait_ready(inst)
        return inst

    async def all_tabs(self) -> TabListing:
        """Every live instance's tabs (with ``instanceId``), and the instances that could not list
        theirs; refreshes the routing table. Concurrent callers share one round of requests."""
        if self._refreshing is None or self._refreshing.done():
            self._refreshing = asyncio.ensure_future(self._fetch_all_tabs())
        return await asyncio.shield(self._refreshing)

    async def _fetch_all_tabs(self) -> TabListing:
        instances = self.manager.live()
        results = await asyncio.gather(*(self._tabs_of(i) for i in instances), return_exceptions=True)
        merged: list[dict[str, Any]] = []
        live = {i.id for i in instances}
        unlisted = [{"instanceId": i.id, "error": f"its bridge is restarting and its tabs will be restored ({i.error})"}
                    for i in self.manager.instances.values() if i.restoring and i.id not in live]
        for inst, tabs in zip(instances, results):
            if isinstance(tabs, BaseException):
                log.warning("GET /tabs on instance %s failed: %s", inst.id, tabs)
                why = str(tabs) or type(tabs).__name__
                unlisted.append({"instanceId": inst.id, "error": f"its tabs could not be listed: {why}"})
                continue
            self.routes.replace_instance(inst.id, [t["id"] for t in tabs if isinstance(t, dict) and "id" in t])
            for t in tabs:
                if isinstance(t, dict):
                    # A tab reopened after a crash is listed under the id its agent knows.
                    shown = {"id": self.routes.public_id(t["id"])} if isinstance(t.get("id"), str) else {}
                    merged.append({**t, **shown, "instanceId": inst.id})
        return TabListing(merged, unlisted)

    async def _tabs_of(self, inst: Instance) -> list[dict[str, Any]]:
        status, data = await self.client.get_json(inst.url, "/tabs", self.manager.auth_header(inst),
                                                  self.manager.config.instances.tabs_timeout_sec)
        if status != 200:
            raise UpstreamError(f"GET /tabs answered {status}")
        if not isinstance(data, dict):
            raise UpstreamError(f"GET /tabs answered {status} without a JSON object")
        tabs = data.get("tabs", [])
        return tabs if isinstance(tabs, list) else []


class ProxyMiddleware:
    """ASGI: forwards tab and shorthand routes; everything else goes on to the FastAPI app."""

    def __init__(self, app: ASGIApp, router: TabLocator, upstream: Upstream) -> None:
        self.app = app
        self.router = router
        self.upstream = upstream

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        path: str = scope["path"]
        if path.startswith("/tabs/"):
            rest = path[6:]
            tab_id, slash, sub = rest.partition("/")
            if tab_id and slash and sub:
                await self._guard(self._tab_route, scope, receive, send, tab_id, sub)
                return
        elif is_shorthand(path):
            await self._guard(self._shorthand, scope, receive, send, path[1:])
            return
        elif path.startswith("/instances/"):
            instance_id, slash, route = path[11:].partition("/")
            if instance_id and slash and scope["method"] in PER_INSTANCE.get(route, ()):
                await self._guard(self._on_instance, scope, receive, send, instance_id, route)
                return
        await self.app(scope, receive, send)

    async def _guard(self, handler: Any, scope: Scope, receive: Receive, send: Send, *args: Any) -> None:
        try:
            await handler(scope, receive, send, *args)
        except PinchtabError as exc:
            await error_response(exc.status, exc.message, exc.code)(scope, receive, send)

    async def _tab_route(self, scope: Scope, receive: Receive, send: Send, tab_id: str, sub: str) -> None:
        body = await _read_body(receive)
        current = self.router.routes.current_id(tab_id)
        inst = await self.router.instance_for_tab(current)
        route = sub.rstrip("/")
        await self._forward(inst, scope, receive, send, body, route, known_tab=current, renamed=(tab_id, current))

    async def _shorthand(self, scope: Scope, receive: Receive, send: Send, route: str) -> None:
        body = await _read_body(receive)
        tab_id = tab_id_in_request(scope["query_string"], body)
        current = self.router.routes.current_id(tab_id) if tab_id else None
        inst = await (self.router.instance_for_tab(current) if current else self.router.default_instance())
        renamed = (tab_id, current) if tab_id and current else None
        if renamed and current != tab_id:
            body = body.replace(tab_id.encode(), current.encode())
        await self._forward(inst, scope, receive, send, body, route, known_tab=current, renamed=renamed)

    async def _on_instance(self, scope: Scope, receive: Receive, send: Send, instance_id: str, route: str) -> None:
        """/instances/{id}/<route>: the shorthand route on that instance (PinchTab's CLI runs there)."""
        body = await _read_body(receive)
        inst = self.router.manager.instances.get(instance_id)
        if inst is None:
            raise NotFound(f"instance {instance_id} not found; GET /instances lists them", "instance_not_found")
        tab_id = tab_id_in_request(scope["query_string"], body)
        await self._forward(inst, scope, receive, send, body, route, known_tab=tab_id, path=b"/" + route.encode())

    async def _forward(self, inst: Instance, scope: Scope, receive: Receive, send: Send, body: bytes, route: str,
                       known_tab: str | None,
                       renamed: tuple[str, str] | None = None, path: bytes | None = None) -> None:
        """The request to ``inst`` (at ``path`` instead of the request's own when given), its answer back."""
        asked = renamed[0] if renamed else known_tab
        if asked and inst.restoring and {asked, known_tab} & inst.restoring:
            raise NotReady(f"tab {asked} is being restored: instance {inst.id}'s bridge is restarting "
                           f"({inst.error or 'it came back and reopens its tabs'}); the tab reopens at its last "
                           "URL under this id, retry in a few seconds", "tab_restoring")
        if inst.status == "starting":
            await self.router.manager.wait_ready(inst)
        if not inst.process_alive or inst.status in ("stopping", "stopped", "error", "starting"):
            how = "" if "restarting it in" in (inst.error or "") else f"; restart it with POST /instances/{inst.id}/restart"
            raise NotReady(
                f"instance {inst.id} is {'unavailable' if inst.status == 'error' else inst.status}"
                + (f" ({inst.error})" if inst.error else "") + how,
                "instance_unavailable",
            )
        scope["pinchtab.instance"] = inst.id  # for the activity log (dashboard.recorder)
        raw_path = path or scope.get("raw_path") or scope["path"].encode()
        qs = scope["query_string"]
        target = raw_path + b"?" + qs if qs else raw_path
        if renamed and renamed[0] != renamed[1]:  # a tab reopened under a new id after a crash
            target = target.replace(renamed[0].encode(), renamed[1].encode())
        deadline = route_deadline(self.router.manager.config, route, body)
        headers = [(k, v) for k, v in scope["headers"] if k in FORWARDED_REQUEST_HEADERS]
        if body and not any(k == b"content-type" for k, _ in headers):
            headers.append((b"content-type", b"application/json"))
        headers.extend(self.router.manager.auth_header(inst))
        started = time.monotonic()
        try:
            response = await asyncio.wait_for(
                self.upstream.request(inst.url, scope["method"], target, headers, body), deadline)
        except asyncio.TimeoutError:
            raise _too_slow(inst, route, deadline) from None
        except UpstreamError as exc:
            raise NotReady(
                f"instance {inst.id} did not answer ({exc}); its status is {inst.status}; "
                f"GET /instances shows it, POST /instances/{inst.id}/restart restarts it",
                "instance_unavailable",
            ) from exc
        status = response.status
        out_headers = [(k, v) for k, v in response.headers if k not in HOP_BY_HOP]
        try:
            if response.length is not None and response.length <= BUFFER_LIMIT:
                try:
                    data = await asyncio.wait_for(response.read(), max(deadline - (time.monotonic() - started), 0.1))
                except asyncio.TimeoutError:
                    raise _too_slow(inst, route, deadline) from None
                except UpstreamError as exc:
                    raise NotReady(f"instance {inst.id} broke off its answer: {exc}", "instance_unavailable") from exc
                self._learn(inst, route, status, data, known_tab, body)
                if renamed and renamed[0] != renamed[1] and renamed[1].encode() in data:
                    # The answer names the tab as its agent knows it.
                    data = data.replace(renamed[1].encode(), renamed[0].encode())
                    out_headers = [(k, v) for k, v in out_headers if k != b"content-length"]
                    out_headers.append((b"content-length", str(len(data)).encode()))
                await send({"type": "http.response.start", "status": status, "headers": out_headers})
                await send({"type": "http.response.body", "body": data})
                return
            await send({"type": "http.response.start", "status": status, "headers": out_headers})
            await _stream_until_caller_leaves(inst, response, receive, send)
        finally:
            await response.aclose()

    def _learn(self, inst: Instance, route: str, status: int, data: bytes, known_tab: str | None, sent: bytes) -> None:
        """Route by the answer, and note the instance's tabs as they open, load and close (what a
        restart after a crash reopens, without waiting for the next poll)."""
        if status == 503:
            # The bridge's Chromium is restarting; it reopens the tabs under their ids.
            return
        if status == 404 and known_tab and b"tab_not_found" in data:
            self.router.routes.forget(known_tab)
            inst.last_tabs.pop(known_tab, None)
            inst.tab_updates += 1
            return
        if route not in TAB_ANSWERING:
            return
        tid, url = tab_in_response(data)
        if status != 200:
            # A navigation that failed or timed out still names its tab (maybe a new one): it is
            # open, on its way to the URL asked for.
            if tid and route in _LOADING:
                self.router.routes.learn(tid, inst.id)
                inst.last_tabs[tid] = url_in_request(sent) or inst.last_tabs.get(tid, "about:blank")
                inst.tab_updates += 1
            return
        tid = tid or known_tab
        if not tid:
            return
        inst.tab_updates += 1
        if closes_tab(route, status, data):
            self.router.routes.forget(tid)
            inst.last_tabs.pop(tid, None)
        else:
            self.router.routes.learn(tid, inst.id)
            known = inst.last_tabs.get(tid, "about:blank")
            inst.last_tabs[tid] = (url or known) if route in _LOADING else known


# Routes that wait for a page to load; the rest are bound by the bridge's command timeout.
_NAVIGATING = frozenset({"navigate", "back", "forward", "reload", "tab", "action", "actions"})
# Routes whose answer's url is the tab's new location.
_LOADING = frozenset({"navigate", "back", "forward", "reload", "tab"})
_AUDITS = {"audit": AUDIT_RUN_TIMEOUT_S, "audit_page": AUDIT_PAGE_TIMEOUT_S}  # bounded by the bridge


def route_deadline(config: Any, route: str, body: bytes) -> float:
    """How long the server waits for a bridge's answer: the route's own timeout plus a margin."""
    margin = config.instances.proxy_margin_sec
    command = config.browser.command_timeout_ms / 1000
    nav = config.browser.navigation_timeout_ms / 1000
    if route in ("navigate", "wait") and body and len(body) < 64 * 1024 and (b'"timeout"' in body or b'"ms"' in body):
        with contextlib.suppress(ValueError, RecursionError, TypeError, AttributeError):
            fields = json.loads(body)
            given = _positive(fields.get("timeout"))
            if given is not None:
                nav = min(given, MAX_WAIT_MS if route == "wait" else 600_000) / 1000
            pause = _positive(fields.get("ms")) if route == "wait" else None
            if pause is not None:  # {"ms": 20000} waits that long whatever the timeout
                nav = max(nav, min(pause, MAX_WAIT_MS) / 1000)
    if route == "wait":
        return min(nav, MAX_WAIT_MS / 1000) + margin
    if route in _AUDITS:
        return _AUDITS[route] + margin
    if route == "scrape":  # a whole site: PinchTab bounds a run at 15 minutes
        return SCRAPE_RUN_TIMEOUT_S + margin
    if route in _NAVIGATING:
        return nav + command + margin
    return command + margin


def _positive(value: Any) -> float | None:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and value > 0:
        return float(value)
    return None


def _too_slow(inst: Instance, route: str, deadline: float) -> Timeout:
    return Timeout(f"instance {inst.id} did not answer /{route} within {deadline:g} s (the route's timeout plus "
                   f"instances.proxyMarginSec); it may be frozen or overloaded: GET /instances shows its status",
                   "instance_timeout")


async def _stream_until_caller_leaves(inst: Instance, response: Any, receive: Receive, send: Send) -> None:
    """The upstream body, chunk by chunk, until it ends or the caller hangs up. The server's
    ``send`` does not fail once the caller has gone, so an event stream (which never ends) would
    run on, its bridge stream with it, and hold the server's shutdown until it is killed."""
    async def pump() -> None:
        try:
            async for chunk in response.iter_bytes():
                if chunk:
                    await send({"type": "http.response.body", "body": chunk, "more_body": True})
        except UpstreamError as exc:  # headers are out: all we can do is cut the body short
            log.warning("instance %s broke off a streamed answer: %s", inst.id, exc)
        await send({"type": "http.response.body", "body": b""})

    async def caller_left() -> None:
        while (await receive())["type"] != "http.disconnect":
            pass

    body, hangup = asyncio.ensure_future(pump()), asyncio.ensure_future(caller_left())
    try:
        await asyncio.wait((body, hangup), return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (body, hangup):
            task.cancel()
        await asyncio.gather(body, hangup, return_exceptions=True)
    if body.done() and not body.cancelled() and body.exception() is not None:
        raise body.exception()  # type: ignore[misc]


async def _read_body(receive: Receive) -> bytes:
    chunks: list[bytes] = []
    while True:
        message: Message = await receive()
        if message["type"] == "http.disconnect":
            break
        chunk = message.get("body", b"")
        if chunk:
            chunks.append(chunk)
        if not message.get("more_body", False):
            break
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)
