"""Python client for the PinchTab HTTP API: ``Client`` (sync) and ``AsyncClient`` (async), on httpx.

Every route of the table in ``pinchtab.api`` is a method: ``call(name, tab_id, **fields)`` builds a
``Call`` (HTTP method, path, query, body, how to read the answer) from the route and its request
model, and hands it to ``self._send``. Routes without a hand-written method below have a generated
one named after the route (``pinchtab.client.routes``: ``pt.instance_logs("inst_1", lines=20)``);
the hand-written ones give a friendlier signature or unwrap the answer. ``pt.tab(id)`` is a
handle with the tab given once (``pinchtab.client.tab.Tab``). ``Client._send`` runs a call and returns the value;
``AsyncClient._send`` is a coroutine, so on ``AsyncClient`` every method returns an awaitable.

    with pinchtab.Client() as pt:
        pt.navigate("https://example.com")
        print(pt.snapshot(format="compact"))

Any failure (non-2xx answer, server unreachable, timeout) raises ``PinchtabClientError``, which
carries ``status`` (0 when no HTTP answer came), ``code`` and ``message`` from the error body.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx
from pydantic import BaseModel

from pinchtab import models
from pinchtab.client.routes import RouteMethods
from pinchtab.api import ROUTES_BY_NAME, Route
from pinchtab.errors import PinchtabError
from pinchtab.client.tab import Tab

DEFAULT_TIMEOUT = 60.0
# Extra seconds on top of a server-side timeout given in a call (navigate timeout, wait timeout),
# so the HTTP request outlives the wait it asked for and the server's own answer comes back.
_TIMEOUT_MARGIN = 10.0
AGENT_HEADER = "X-Agent-Id"  # who is asking: the server's activity log and dashboard group requests by it
# The agent a call is made for when the client itself has no agent_id: the MCP server sets it per
# tool call to its MCP client's name (one server may serve several clients over HTTP).
calling_agent: ContextVar[str | None] = ContextVar("calling_agent", default=None)
START_HINT = "start one with `pinchtab server` (or `pinchtab bridge`), or point PINCHTAB_SERVER at it"


class PinchtabClientError(PinchtabError):
    """The one error a client call raises.

    ``status`` is the HTTP status, or 0 when no answer came (``code`` is then
    ``server_unreachable``, ``timeout`` or ``transport_error``). ``body`` is the decoded error
    body when there was one (e.g. ``results`` and ``failedIndex`` from a failed ``actions`` batch).
    """

    def __init__(self, message: str, code: str, *, status: int, body: Any = None) -> None:
        super().__init__(message, code, status=status)
        self.body = body

    def __str__(self) -> str:
        where = f"HTTP {self.status}" if self.status else "no answer"
        return f"{self.message} ({where}, {self.code})"


def default_server_url() -> str:
    """``PINCHTAB_SERVER``, else the local server on the configured port (default 9867)."""
    env = os.environ.get("PINCHTAB_SERVER")
    if env:
        return env.rstrip("/")
    from pinchtab.config import load_config

    return f"http://127.0.0.1:{load_config().server.port}"


def default_token() -> str | None:
    """``PINCHTAB_TOKEN``, else ``server.token`` from the config file."""
    env = os.environ.get("PINCHTAB_TOKEN")
    if env:
        return env
    from pinchtab.config import load_config

    return load_config().server.token


def _wire(model: type[BaseModel], **fields: Any) -> dict[str, Any]:
    """The camelCase JSON of ``model`` for the fields given (None means "not given").

    ``model_construct`` skips validation on purpose: the server validates, and answers a 400
    that says what is wrong, so the client never disagrees with it about what is valid.
    """
    names = _field_names(model)
    given = {k: v for k, v in fields.items() if v is not None}
    by_python = {name: given[wire] for name, info in model.model_fields.items()
                 if (wire := info.alias or name) in given}
    by_python.update({k: v for k, v in given.items() if k in model.model_fields})
    extra = {k: v for k, v in given.items() if k not in names}
    dumped = model.model_construct(**by_python).model_dump(by_alias=True, exclude_unset=True, mode="json", warnings=False)
    return {**dumped, **extra}


def _json(res: httpx.Response) -> Any:
    return res.json()


def _key(name: str) -> Callable[[httpx.Response], Any]:
    return lambda res: res.json()[name]


def _body(res: httpx.Response) -> bytes:
    return res.content


def _json_or_text(res: httpx.Response) -> Any:
    if res.headers.get("content-type", "").startswith("application/json"):
        return res.json()
    return res.text


def _events(res: httpx.Response) -> list[dict[str, Any]]:
    """A server-sent event stream that ended (maxEvents, durationMs): ``[{"event", "data"}, ...]``."""
    out = []
    for frame in res.text.split("\n\n"):
        fields = dict(line.split(": ", 1) for line in frame.splitlines() if ": " in line and not line.startswith(":"))
        if "event" in fields:
            out.append({"event": fields["event"], "data": json.loads(fields.get("data", "null"))})
    return out


@dataclass
class Call:
    """One HTTP request and how to read its answer."""

    method: str
    path: str
    params: dict[str, Any] | None = None
    json: Any = None
    parse: Callable[[httpx.Response], Any] = _json
    timeout: float | None = None  # seconds; None: the client's default


def _seconds(ms: int | float | None) -> float | None:
    return None if ms is None else ms / 1000 + _TIMEOUT_MARGIN


class _Routes(RouteMethods):
    """The PinchTab HTTP API, one method per route: those that shape an answer here, the others
    generated (``client.routes``). Subclasses provide ``_send``."""

    def _send(self, call: Call) -> Any:  # pragma: no cover - overridden
        raise NotImplementedError

    def call(self, route_name: str, tab_id: str | None = None, /, *,
             parse: Callable[[httpx.Response], Any] | None = None, wait_ms: int | float | None = None,
             **fields: Any) -> Any:
        """Call route ``name`` of ``pinchtab.api`` with its request fields (snake_case or wire names;
        None means "not given"). ``tab_id`` picks ``/tabs/{id}/...``; ``wait_ms`` is how long the
        server may take, so the HTTP request outlives it."""
        return self._send(_build_call(ROUTES_BY_NAME[route_name], tab_id, fields, parse, wait_ms))

    # -- health and tabs -------------------------------------------------------------------------

    def health(self) -> dict[str, Any]:
        """``{"status":"ok","tabs":N,...}``. A server that is up but not ready raises (503)."""
        return self.call("health")

    def tabs(self) -> list[dict[str, Any]]:
        """Open tabs: ``[{"id","url","title","type"}]``."""
        return self.call("tabs", parse=_key("tabs"))

    def tab(self, tab_id: str | None = None) -> Tab:
        """A handle on tab ``tab_id`` (None: the current tab): ``pt.tab(id).click("role:button Log in")``."""
        return Tab(self, tab_id)

    def new_tab(self, url: str | None = None) -> dict[str, Any]:
        """Open a tab (about:blank without ``url``): ``{"tabId","url","title"}``."""
        return self.call("tab", action="new", url=url)

    def focus_tab(self, id: str) -> dict[str, Any]:
        """Make ``id`` the current tab (the one shorthand routes act on)."""
        return self.call("tab", action="focus", tab_id=id)

    def close_tab(self, id: str | None = None) -> dict[str, Any]:
        """Close ``id``, or the current tab: ``{"closed":true,"tabId"}``."""
        return self.call("close_tab", id)

    # -- audits ----------------------------------------------------------------------------------

    def audit(self, urls: list[str] | None = None, sitemap_url: str | None = None,
              options: dict[str, bool] | None = None, concurrency: int | None = None,
              sample_size: int | None = None) -> dict[str, Any]:
        """Audit pages (``urls``, or those of ``sitemap_url``) into a versioned ``AuditReport``;
        ``options`` turns collectors off (``{"screenshot": False}``). Waits as long as the server may."""
        return self.call("audit", wait_ms=models.AUDIT_RUN_TIMEOUT_S * 1000, urls=urls, sitemap_url=sitemap_url,
                         options=options, concurrency=concurrency, sample_size=sample_size)

    def audit_page(self, url: str, options: dict[str, bool] | None = None) -> dict[str, Any]:
        """Audit one page in a tab of its own: its console, network, broken assets, interactive
        elements, accessibility, timing and security findings, and a screenshot."""
        return self.call("audit_page", wait_ms=models.AUDIT_PAGE_TIMEOUT_S * 1000, url=url, options=options)

    # -- navigation ------------------------------------------------------------------------------

    def navigate(
        self,
        url: str,
        tab_id: str | None = None,
        new_tab: bool = False,
        timeout: int | None = None,
        wait_for: str | None = None,
        wait_selector: str | None = None,
        block_images: bool = False,
        block_media: bool = False,
        current_tab: bool = False,
        snap: bool = False,
        snap_diff: bool = False,
    ) -> dict[str, Any]:
        """Load ``url`` and answer after it loaded: ``{"tabId","url","title"}``. ``timeout`` in ms.
        Without ``tab_id`` a new tab opens (PinchTab's rule), unless ``current_tab``. ``snap``
        (``snap_diff``) adds the page's interactive compact snapshot (what changed) as ``snapshot``."""
        return self.call(
            "navigate", tab_id, wait_ms=timeout, url=url, new_tab=new_tab or None, timeout=timeout,
            wait_for=wait_for, wait_selector=wait_selector, block_images=block_images or None,
            block_media=block_media or None, current_tab=current_tab or None, snap=snap or None,
            snap_diff=snap_diff or None,
        )

    def back(self, tab_id: str | None = None) -> dict[str, Any]:
        return self.call("back", tab_id)

    def forward(self, tab_id: str | None = None) -> dict[str, Any]:
        return self.call("forward", tab_id)

    def reload(self, tab_id: str | None = None) -> dict[str, Any]:
        return self.call("reload", tab_id)

    # -- snapshot and find -----------------------------------------------------------------------

    def snapshot(
        self,
        tab_id: str | None = None,
        interactive: bool = False,
        format: str = "json",
        diff: bool = False,
        selector: str | None = None,
        depth: int | None = None,
        max_tokens: int | None = None,
    ) -> dict[str, Any] | str:
        """Accessibility snapshot with refs: a dict for ``format="json"``, text for text/compact/yaml/outline."""
        return self.call(
            "snapshot", tab_id, filter="interactive" if interactive else None,
            format=None if format == "json" else format, diff=diff or None, selector=selector,
            depth=depth, max_tokens=max_tokens,
        )

    def find(
        self,
        query: str,
        tab_id: str | None = None,
        threshold: float | None = None,
        top_k: int | None = None,
        lexical_weight: float | None = None,
        embedding_weight: float | None = None,
        explain: bool = False,
    ) -> dict[str, Any]:
        """Element by description: ``{"best_ref","confidence","score","matches",...}``."""
        return self.call(
            "find", tab_id, query=query, threshold=threshold, top_k=top_k, lexical_weight=lexical_weight,
            embedding_weight=embedding_weight, explain=explain or None,
        )

    # -- actions ---------------------------------------------------------------------------------

    def action(self, kind: str, ref: str | None = None, selector: str | None = None,
               tab_id: str | None = None, **fields: Any) -> dict[str, Any]:
        """One action (``kind``: click, type, fill, press, ...). ``fields`` are the other
        ``ActionRequest`` fields in snake_case: text, value, key, pixels, direction, x, y, wait_nav."""
        return self.call("action", tab_id, kind=kind, ref=ref, selector=selector, **fields)

    def actions(self, actions: list[dict[str, Any]], tab_id: str | None = None,
                stop_on_error: bool | None = None, snap: bool = False, snap_diff: bool = False) -> dict[str, Any]:
        """Run actions in order, stopping at the first failure. Each item is a dict with ``kind``
        and the fields of ``action()`` (snake_case or camelCase keys). ``stop_on_error`` given:
        PinchTab's batch, every outcome in ``results`` and no error raised (see the route).
        ``snap``/``snap_diff``: the page after the batch as ``snapshot``."""
        return self.call("actions", tab_id, actions=[_action_body(**a) for a in actions], stop_on_error=stop_on_error,
                         snap=snap or None, snap_diff=snap_diff or None)

    def click(self, ref: str, tab_id: str | None = None, **fields: Any) -> dict[str, Any]:
        return self.action("click", ref, tab_id=tab_id, **fields)

    def dblclick(self, ref: str, tab_id: str | None = None, **fields: Any) -> dict[str, Any]:
        return self.action("dblclick", ref, tab_id=tab_id, **fields)

    def type(self, ref: str, text: str, tab_id: str | None = None) -> dict[str, Any]:
        """Type ``text`` key by key into ``ref``."""
        return self.action("type", ref, tab_id=tab_id, text=text)

    def fill(self, ref: str, value: str, tab_id: str | None = None) -> dict[str, Any]:
        """Set the value of ``ref`` and fire input/change (works with React, Vue, ...)."""
        return self.action("fill", ref, tab_id=tab_id, value=value)

    def press(self, key: str, ref: str | None = None, tab_id: str | None = None) -> dict[str, Any]:
        """Press a named key (Enter, Tab, Escape, ...), on ``ref`` when given."""
        return self.action("press", ref, tab_id=tab_id, key=key)

    def hover(self, ref: str, tab_id: str | None = None) -> dict[str, Any]:
        return self.action("hover", ref, tab_id=tab_id)

    def focus(self, ref: str, tab_id: str | None = None) -> dict[str, Any]:
        return self.action("focus", ref, tab_id=tab_id)

    def select(self, ref: str, value: str, tab_id: str | None = None) -> dict[str, Any]:
        """Choose an option of a <select>, by value and then by visible text."""
        return self.action("select", ref, tab_id=tab_id, value=value)

    def scroll(self, ref: str | None = None, pixels: int | None = None, direction: str | None = None,
               tab_id: str | None = None) -> dict[str, Any]:
        """Scroll ``ref`` into view, or the page by ``pixels`` (default 300) or in ``direction``."""
        return self.action("scroll", ref, tab_id=tab_id, pixels=pixels, direction=direction)

    def check(self, ref: str, tab_id: str | None = None) -> dict[str, Any]:
        return self.action("check", ref, tab_id=tab_id)

    def uncheck(self, ref: str, tab_id: str | None = None) -> dict[str, Any]:
        return self.action("uncheck", ref, tab_id=tab_id)

    # -- content ---------------------------------------------------------------------------------

    def text(self, tab_id: str | None = None, raw: bool = False, max_chars: int | None = None) -> dict[str, Any]:
        """Readable text of the page: ``{"url","title","text"}`` (``raw``: all of innerText)."""
        return self.call("text", tab_id, mode="raw" if raw else None, max_chars=max_chars)

    def screenshot(self, tab_id: str | None = None, format: str = "png", quality: int | None = None,
                   full_page: bool = False) -> bytes:
        """The image bytes (jpeg when ``quality`` is given)."""
        return self.call("screenshot", tab_id, format=None if format == "png" else format, quality=quality,
                         full_page=full_page or None)

    def pdf(self, tab_id: str | None = None, landscape: bool = False, scale: float | None = None,
            page_ranges: str | None = None) -> bytes:
        """The page printed as PDF bytes."""
        return self.call("pdf", tab_id, landscape=landscape or None, scale=scale, page_ranges=page_ranges)

    def evaluate(self, expression: str, tab_id: str | None = None) -> Any:
        """The JSON value of a JavaScript expression (needs ``security.allowEvaluate``)."""
        return self.call("evaluate", tab_id, parse=_key("result"), expression=expression)

    def cookies(self, tab_id: str | None = None, url: str | None = None) -> list[dict[str, Any]]:
        """Cookies of the page, or of ``url`` (needs ``security.allowCookies``)."""
        return self.call("cookies", tab_id, parse=_key("cookies"), url=url)

    def set_cookies(self, cookies: list[dict[str, Any]], url: str | None = None, tab_id: str | None = None) -> int:
        """Set cookies (dicts with name, value and optionally domain, path, ...); answers how many."""
        return self.call("set_cookies", tab_id, parse=_key("set"), cookies=cookies, url=url)

    def wait(self, selector: str | None = None, text: str | None = None, timeout: int | None = None,
             tab_id: str | None = None, **condition: Any) -> dict[str, Any]:
        """Wait until ``selector`` or ``text`` is present (or another ``condition`` of POST /wait:
        ``not_text``, ``url``, ``load``, ``fn``, ``ms``, ``state``): ``{"waited","present","elapsedMs",...}``.
        ``timeout`` in ms (default 10000, capped at 30000 by the server)."""
        wait_ms = min(max(timeout if timeout is not None else 10000, condition.get("ms") or 0), models.MAX_WAIT_MS)
        return self.call("wait", tab_id, wait_ms=wait_ms, selector=selector, text=text, timeout=timeout, **condition)

    # -- orchestrator (pinchtab server) ----------------------------------------------------------

    def profiles(self) -> list[dict[str, Any]]:
        """Profiles (persistent Chrome user-data dirs): ``[{"id","name",...,"running"}]``."""
        return self.call("profiles", parse=_key("profiles"))

    def create_profile(self, name: str, description: str | None = None) -> dict[str, Any]:
        return self.call("create_profile", name=name, description=description)

    def delete_profile(self, id: str) -> dict[str, Any]:
        return self.call("delete_profile", profile_id=id)

    def instances(self) -> list[dict[str, Any]]:
        """Browser instances the server runs: ``[{"id","status","port",...}]``."""
        return self.call("instances", parse=_key("instances"))

    def start_instance(self, profile_id: str | None = None, mode: str = "headless") -> dict[str, Any]:
        """Start a bridge with its own Chromium (a temporary profile without ``profile_id``)."""
        return self.call("start_instance", profile_id=profile_id, mode=mode)

    def stop_instance(self, id: str) -> dict[str, Any]:
        return self.call("stop_instance", instance_id=id)

    def open_tab_in_instance(self, id: str, url: str) -> dict[str, Any]:
        """Open ``url`` in a new tab of instance ``id``: ``{"tabId",...}``."""
        return self.call("open_tab_in_instance", instance_id=id, url=url)


def _field_names(model: type[BaseModel]) -> dict[str, str]:
    """Python and wire name of every field -> its wire name."""
    names: dict[str, str] = {}
    for name, info in model.model_fields.items():
        names[name] = names[info.alias or name] = info.alias or name
    return names


_PARSE = {"json": _json, "text": _json_or_text, "binary": _body, "stream": _events}


def _build_call(route: Route, tab_id: str | None, fields: dict[str, Any],
                parse: Callable[[httpx.Response], Any] | None, wait_ms: int | float | None) -> Call:
    fields = {k: v for k, v in fields.items() if v is not None}
    if route.tabbed and tab_id is None:
        tab_id = fields.pop("tab_id", None) or fields.pop("tabId", None)
    names = _field_names(route.request) if route.request is not None else {}
    unknown = [k for k in fields if k not in names]
    if unknown:
        known = ", ".join(sorted(n for n in (route.request.model_fields if route.request else {})))
        raise TypeError(f"{route.name}: unknown field(s) {', '.join(unknown)}; known: {known or 'none'}")
    wire = {names[k]: v for k, v in fields.items()}
    path = route.path
    for param in route.path_params:
        key = names.get(param, param)
        if key not in wire:
            raise TypeError(f"{route.name}: {param} is required")
        path = path.replace("{" + param + "}", quote(str(wire.pop(key)), safe=""))
    if tab_id:
        if route.tabbed:
            path = f"/tabs/{quote(tab_id, safe='')}{path}"
        else:
            wire["tabId"] = tab_id
    if route.reply == "binary" and wire.get("raw") is not False:  # the bytes, unless JSON is asked for
        wire["raw"] = True
    wire = _wire(route.request, **wire) if route.request is not None and wire else wire
    if route.body_method:
        return Call(route.method, path, json=wire or None, parse=parse or _PARSE[route.reply], timeout=_seconds(wait_ms))
    return Call(route.method, path, params=wire or None, parse=parse or _PARSE[route.reply], timeout=_seconds(wait_ms))


_ACTION_FIELDS = {name: (info.alias or name) for name, info in models.ActionRequest.model_fields.items()}
_ACTION_WIRE = set(_ACTION_FIELDS.values())


def _action_body(kind: str, **fields: Any) -> dict[str, Any]:
    """An ``ActionRequest`` body; unknown field names are a TypeError here rather than silently
    ignored by the server (it ignores extra keys), so a typo does not become a no-op."""
    body: dict[str, Any] = {"kind": kind}
    for name, value in fields.items():
        if value is None:
            continue
        if name in _ACTION_FIELDS:
            body[_ACTION_FIELDS[name]] = value
        elif name in _ACTION_WIRE:
            body[name] = value
        else:
            raise TypeError(f"unknown action field {name!r}; known: {', '.join(sorted(_ACTION_FIELDS))}")
    return body


class _Base(_Routes):
    def __init__(self, server_url: str | None, token: str | None, timeout: float, agent_id: str | None = None) -> None:
        self.server_url = (server_url or default_server_url()).rstrip("/")
        self.token = token if token is not None else default_token()
        self.timeout = timeout
        self._headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        # An agent session (POST /sessions) stands for the token and names the agent itself.
        if session := os.environ.get("PINCHTAB_SESSION"):
            self._headers["Authorization"] = f"Session {session}"
        self.agent_id = agent_id if agent_id is not None else os.environ.get("PINCHTAB_AGENT_ID") or None
        if self.agent_id:
            self._headers[AGENT_HEADER] = self.agent_id

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.server_url!r})"

    def _verify(self) -> bool:
        """Certificates are checked for an https:// server. For http:// no TLS happens (the client
        only sends paths under its base URL and follows no redirects), so the CA bundle, ~80 ms to
        load on a cold MCP start, is not read."""
        return not self.server_url.startswith("http://")

    def _request_kwargs(self, call: Call) -> dict[str, Any]:
        kw: dict[str, Any] = {"params": call.params or None}
        if not self.agent_id and (agent := calling_agent.get()):
            kw["headers"] = {AGENT_HEADER: agent}
        if call.json is not None:
            kw["json"] = call.json
        if call.timeout is not None and call.timeout > self.timeout:
            kw["timeout"] = call.timeout
        return kw

    def _transport_error(self, exc: httpx.TransportError) -> PinchtabClientError:
        if isinstance(exc, httpx.ConnectError):
            return PinchtabClientError(
                f"Connection refused: no pinchtab server answers at {self.server_url} ({exc}); {START_HINT}",
                "server_unreachable", status=0,
            )
        if isinstance(exc, httpx.TimeoutException):
            return PinchtabClientError(
                f"no answer from {self.server_url} in time ({type(exc).__name__}); the server may be busy "
                "or the page slow: pass a larger timeout", "timeout", status=0,
            )
        return PinchtabClientError(f"HTTP transport failed talking to {self.server_url}: {exc!r}",
                                   "transport_error", status=0)

    @staticmethod
    def _finish(call: Call, res: httpx.Response) -> Any:
        if res.is_success:
            return call.parse(res)
        try:
            body = res.json()
        except ValueError:
            body = None
        if isinstance(body, dict) and "error" in body:
            raise PinchtabClientError(str(body["error"]), str(body.get("code") or "http_error"),
                                      status=res.status_code, body=body)
        text = res.text.strip()[:300] or res.reason_phrase
        raise PinchtabClientError(f"{call.method} {call.path}: {text}", "http_error", status=res.status_code, body=body)


class Client(_Base):
    """Synchronous client. ``Client(server_url=None, token=None, timeout=60.0, agent_id=None)``.

    ``server_url`` defaults to ``PINCHTAB_SERVER``, else ``http://127.0.0.1:<server.port>``;
    ``token`` to ``PINCHTAB_TOKEN``, else ``server.token`` of the config. ``timeout`` in seconds.
    ``agent_id`` (default ``PINCHTAB_AGENT_ID``) goes with every request as ``X-Agent-Id``: the
    server's activity log and dashboard show what each agent did under it. With ``PINCHTAB_SESSION``
    set, requests carry that agent session (``Authorization: Session``) instead of the token.
    """

    def __init__(self, server_url: str | None = None, token: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 agent_id: str | None = None) -> None:
        super().__init__(server_url, token, timeout, agent_id)
        self._http = httpx.Client(base_url=self.server_url, headers=self._headers, timeout=timeout,
                                  verify=self._verify())

    def _send(self, call: Call) -> Any:
        try:
            res = self._http.request(call.method, call.path, **self._request_kwargs(call))
        except httpx.TransportError as exc:
            raise self._transport_error(exc) from exc
        return self._finish(call, res)

    def open_tab(self, url: str | None = None) -> Tab:
        """Open a tab (on ``url``) and answer its handle."""
        return Tab(self, self.new_tab(url)["tabId"])

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


class AsyncClient(_Base):
    """Asynchronous client: the methods of ``Client``, each returning an awaitable.

    ``async with AsyncClient() as pt: await pt.navigate("https://example.com")``

    The route methods are shared with ``Client`` (one definition), so their annotations show the
    value; here each returns an awaitable of it (the generated ones are typed ``Any``, which a type
    checker lets you await).
    """

    def __init__(self, server_url: str | None = None, token: str | None = None, timeout: float = DEFAULT_TIMEOUT,
                 agent_id: str | None = None) -> None:
        super().__init__(server_url, token, timeout, agent_id)
        self._http = httpx.AsyncClient(base_url=self.server_url, headers=self._headers, timeout=timeout,
                                       verify=self._verify())

    async def _send(self, call: Call) -> Any:  # type: ignore[override]
        try:
            res = await self._http.request(call.method, call.path, **self._request_kwargs(call))
        except httpx.TransportError as exc:
            raise self._transport_error(exc) from exc
        return self._finish(call, res)

    async def open_tab(self, url: str | None = None) -> Tab:
        """Open a tab (on ``url``) and answer its handle."""
        return Tab(self, (await self.new_tab(url))["tabId"])

    async def aclose(self) -> None:
        await self._http.aclose()

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.aclose()
