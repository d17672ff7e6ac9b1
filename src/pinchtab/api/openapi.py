"""``/openapi.json`` from the route table (no web framework, no browser)."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from pinchtab.api.route import INSTANCE_PREFIX, TAB_PREFIX, Route

ERROR_SCHEMA = {
    "type": "object",
    "properties": {"error": {"type": "string"}, "code": {"type": "string"}},
    "required": ["error", "code"],
}
_TAB_PARAM = {"name": "tab_id", "in": "path", "required": True, "schema": {"type": "string"},
              "description": "Tab ID (from GET /tabs)"}
_INSTANCE_PARAM = {"name": "instance_id", "in": "path", "required": True, "schema": {"type": "string"},
                   "description": "Instance ID (from GET /instances): the route runs on that instance"}


def _model_schema(model: type[BaseModel], components: dict[str, Any],
                  made: dict[type, dict[str, Any]]) -> dict[str, Any]:
    """``model``'s JSON schema, made once per document (``made``): a route's model serves each of its
    paths (its tab and instance forms) and methods (the bridge's 159 operations have 69 models)."""
    if model in made:
        return made[model]
    schema = made[model] = model.model_json_schema(by_alias=True, ref_template="#/components/schemas/{model}")
    for name, definition in schema.pop("$defs", {}).items():
        components.setdefault(name, definition)
    components.setdefault(model.__name__, schema)
    return schema


def _operation(route: Route, method: str, path: str, components: dict[str, Any],
               made: dict[type, dict[str, Any]]) -> dict[str, Any]:
    tab_form = path != route.path and path.startswith(TAB_PREFIX)
    instance_form = path != route.path and path.startswith(INSTANCE_PREFIX)
    op: dict[str, Any] = {
        "summary": route.summary,
        "operationId": f"{route.name}{'_tab' if tab_form else '_instance' if instance_form else ''}_{method.lower()}",
    }
    if route.description:
        op["description"] = route.description
    params: list[dict[str, Any]] = [_TAB_PARAM] if tab_form else [_INSTANCE_PARAM] if instance_form else []
    model = route.request
    path_names = set(route.path_params)
    if model is not None:
        schema = _model_schema(model, components, made)
        props = schema.get("properties", {})
        required = set(schema.get("required", []))
        names = {name: (info.alias or name) for name, info in model.model_fields.items()}
        for name in route.path_params:
            wire = names.get(name, name)
            params.append({"name": name, "in": "path", "required": True,
                           "schema": props.get(wire, {"type": "string"}),
                           "description": model.model_fields[name].description or ""} if name in model.model_fields
                          else {"name": name, "in": "path", "required": True, "schema": {"type": "string"}})
        if method in ("POST", "PUT", "PATCH"):
            op["requestBody"] = {
                "required": bool(required - {names.get(n, n) for n in path_names}),
                "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{model.__name__}"}}},
            }
        else:
            for name, info in model.model_fields.items():
                wire = info.alias or name
                if name in path_names or (tab_form and name == "tab_id"):
                    continue
                param: dict[str, Any] = {"name": wire, "in": "query", "required": wire in required,
                                         "schema": props.get(wire, {})}
                if info.description:
                    param["description"] = info.description
                params.append(param)
    if params:
        op["parameters"] = params
    ok: dict[str, Any] = {"description": "OK"}
    if route.reply == "binary":
        ok["content"] = {"application/json": {"schema": {"type": "object"}},
                         "application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}
    elif route.reply == "stream":
        ok["content"] = {"text/event-stream": {"schema": {"type": "string"}}}
    elif route.reply == "text":
        ok["content"] = {"application/json": {"schema": {"type": "object"}}, "text/plain": {"schema": {"type": "string"}}}
    else:
        ok["content"] = {"application/json": {"schema": {}}}
    op["responses"] = {
        str(route.status): ok,
        "default": {"description": "An error: what happened and what to do, and a snake_case code",
                    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
    }
    if route.gate is not None:
        op["x-gate"] = f"security.{route.gate.key}"
    return op


def build_openapi(routes: tuple[Route, ...], *, title: str, version: str, description: str) -> dict[str, Any]:
    components: dict[str, Any] = {"Error": ERROR_SCHEMA}
    paths: dict[str, dict[str, Any]] = {}
    made: dict[type, dict[str, Any]] = {}
    for route in routes:
        for path in (*route.paths(), *filter(None, [route.instance_path()])):
            for method in route.methods:
                paths.setdefault(path, {})[method.lower()] = _operation(route, method, path, components, made)
    return {
        "openapi": "3.1.0",
        "info": {"title": title, "version": version, "description": description},
        "paths": paths,
        "components": {"schemas": components},
    }
