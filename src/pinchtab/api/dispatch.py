"""Serving the route table over HTTP: a request becomes its route's model, the handler gets it,
and what the handler returns becomes the answer. The bridge and the server both mount with this.

Parsing is ours rather than FastAPI's dependency injection: one model per route built from the
query, the JSON body and the path, validated once (a request costs one ``model_validate``), and
errors in our shape (``{"error", "code"}``, 400) naming the field and what it must be.
"""

from __future__ import annotations

import base64
import json
from collections.abc import Awaitable, Callable
from typing import Any, get_origin

from pydantic import BaseModel, ValidationError
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.routing import Router

from pinchtab.api.route import Route
from pinchtab.models import Blob, Gate, Reply
from pinchtab.errors import BadRequest, Forbidden, PinchtabError
from pinchtab.web import FastJSON

Handler = Callable[..., Awaitable[Any]]


def mount(router: Router, routes: tuple[Route, ...], handler_for: Callable[[Route], Handler], security: Any) -> None:
    """Add every route (and its ``/tabs/{tab_id}`` form) to ``router``; ``handler_for(route)``
    gives the coroutine that does the work, called with the request model (or nothing)."""
    for route in routes:
        endpoint = _endpoint(route, handler_for(route), security)
        for path in route.paths():
            router.add_route(path, endpoint, methods=list(route.methods), name=route.name, include_in_schema=False)


def _endpoint(route: Route, handler: Handler, security: Any) -> Callable[[Request], Awaitable[Response]]:
    async def endpoint(request: Request) -> Response:
        try:
            req = await parse_request(route, request)
            if route.leased and (owner := request.headers.get("x-owner", "").strip()):
                req.owner = owner  # type: ignore[union-attr]  # the header wins, as in PinchTab
            check_gate(route.gate, security)
            value = await (handler(req) if route.request is not None else handler())
        except PinchtabError as exc:
            return FastJSON(exc.to_dict(), status_code=exc.status)
        return shape(route, req, value)

    endpoint.__name__ = route.name
    return endpoint


def check_gate(gate: Gate | None, security: Any) -> None:
    """403 naming the ``security.*`` key while the gate is off."""
    if gate is not None and not getattr(security, gate.attr, False):
        denied = Forbidden(gate.message(), gate.code)
        denied.extra["details"] = {"setting": f"security.{gate.key}"}
        raise denied


# -- requests --------------------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_json_body(body: bytes) -> dict[str, Any]:
    """A JSON object body (empty: ``{}``). Strict JSON: no NaN or Infinity."""
    if not body.strip():
        return {}
    try:
        data = json.loads(body, parse_constant=_reject_constant)
    except RecursionError:
        raise BadRequest("invalid JSON body: nested too deeply", "invalid_json") from None
    except ValueError as exc:
        msg = exc.msg if isinstance(exc, json.JSONDecodeError) else str(exc)
        raise BadRequest(f"invalid JSON body: {msg}", "invalid_json") from None
    if not isinstance(data, dict):
        raise BadRequest("the JSON body must be an object", "invalid_body")
    return data


def _wire_names(model: type[BaseModel]) -> dict[str, str]:
    return {name: (info.alias or name) for name, info in model.model_fields.items()}


def _list_fields(model: type[BaseModel]) -> set[str]:
    return {(info.alias or name) for name, info in model.model_fields.items() if get_origin(info.annotation) is list}


async def parse_request(route: Route, request: Request) -> BaseModel | None:
    model = route.request
    if model is None:
        return None
    data: dict[str, Any] = {}
    body: dict[str, Any] = {}
    if request.query_params:
        lists = _list_fields(model)
        for key, value in request.query_params.multi_items():
            if key in lists:
                data.setdefault(key, []).append(value)
            else:
                data[key] = value
    if request.method in ("POST", "PUT", "PATCH", "DELETE"):
        body = parse_json_body(await request.body())
        data.update(body)
    try:
        if request.path_params:
            names = _wire_names(model)
            path = {names.get(k, k): v for k, v in request.path_params.items()}
            if any(k in data for k in path):
                model.model_validate(data)  # the body's own value must be valid too; the path's wins
            data.update(path)
        req = model.model_validate(data)
    except ValidationError as exc:
        message, code = describe_validation(exc, model)
        raise BadRequest(message, code) from None
    if body:
        check_body_types(model, body)
    return req


def check_body_types(model: type[BaseModel], body: dict[str, Any]) -> None:
    """JSON values must have their field's own type: ``"timeout": true`` is not 1 ms and
    ``"newTab": "yes"`` is not true (query strings, all text, are converted as usual)."""
    try:
        model.model_validate(body, strict=True)
    except ValidationError as exc:
        # Only what strictness adds: a value of the wrong JSON type (the rest passed already).
        wrong = [e for e in exc.errors() if str(e.get("type", "")).endswith("_type")]
        if wrong:
            first = wrong[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            got = json.dumps(first.get("input"))[:60]
            raise BadRequest(f"{where}: {first.get('msg', 'wrong type')} (got {got})", "invalid_field") from None


def describe_validation(exc: ValidationError, model: type[BaseModel]) -> tuple[str, str]:
    """One sentence for the first problem; every missing field when several are missing."""
    errors = exc.errors()
    if not errors:
        return "invalid request", "bad_request"
    missing = [e for e in errors if e.get("type") == "missing" and len(e.get("loc", ())) == 1]
    if len(missing) > 1:
        names = [str(e["loc"][0]) for e in missing]
        return f"{' and '.join(names)} are required", f"missing_{names[0]}"
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ())]
    where = ".".join(loc)
    msg = first.get("msg", "invalid value")
    if first.get("type") == "missing":
        return f"{where} is required", f"missing_{loc[-1]}" if loc else "missing_field"
    if first.get("type") == "string_too_long":
        cap = first.get("ctx", {}).get("max_length")
        return f"{where} is {len(first.get('input') or ''):,} characters; the cap is {cap:,}", "too_long"
    if first.get("type") == "literal_error" and loc and loc[-1] == "kind":
        return f"unknown action kind {first.get('input')!r}; {msg[0].lower()}{msg[1:]}", "unknown_kind"
    return (f"{where}: {msg}" if where else msg), "invalid_field"


# -- answers ---------------------------------------------------------------------------------------


def shape(route: Route, req: BaseModel | None, value: Any) -> Response:
    if isinstance(value, Response):
        return value
    if isinstance(value, Reply):
        return FastJSON(value.body, status_code=value.status)
    if isinstance(value, Blob):
        if getattr(req, "raw", False):
            return Response(content=value.data, media_type=value.media_type)
        return FastJSON({**value.meta, "base64": base64.b64encode(value.data).decode()}, status_code=route.status)
    if isinstance(value, str) and route.reply == "text":
        return PlainTextResponse(value)
    return FastJSON(value, status_code=route.status)
