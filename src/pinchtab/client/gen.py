"""Writes ``pinchtab/client/routes.py``: a typed client method for every route of ``pinchtab.api``
that ``client._Routes`` does not write by hand (those shape an answer or give a friendlier call).

    python -m pinchtab.client.gen          # rewrite the module
    python -m pinchtab.client.gen --check  # exit 1 when it is stale

Each method takes the path parameters and the required fields positionally, in that order, and the
other fields as keywords (None: not sent, so the server's default applies; the default is in the
docstring); ``tab_id`` picks the tab of a tab route. Names and types are the request model's.
"""

from __future__ import annotations

import json
import sys
import textwrap
import types
import typing
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic_core import PydanticUndefined

from pinchtab.api import ROUTES, Route

TARGET = Path(__file__).with_name("routes.py")
REGENERATE = "python -m pinchtab.client.gen"
_WIDTH = 110

_HEADER = f'''"""The client's route methods, one per route of ``pinchtab.api`` without a hand-written one in
``pinchtab.client``. Generated from the route table and the request models by
``{REGENERATE}``: do not edit (a unit test fails when it is stale)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal


class RouteMethods:
    """Methods calling ``self.call(route, tab_id, **fields)``; on ``AsyncClient`` each returns an awaitable."""

    call: Callable[..., Any]  # pinchtab.client._Routes.call
'''


def type_text(tp: Any) -> str:
    """``tp`` as it reads in a signature (a nested request model is passed as a dict)."""
    if tp is type(None):
        return "None"
    if tp is Any:
        return "Any"
    if isinstance(tp, type) and issubclass(tp, BaseModel):
        return "dict[str, Any]"
    if isinstance(tp, type) and tp.__module__ == "builtins":
        return tp.__name__
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is typing.Annotated:  # a validated type (models.Printable): the caller passes its base
        return type_text(args[0])
    if origin is typing.Literal:
        return f"Literal[{', '.join(json.dumps(a) for a in args)}]"
    if origin in (typing.Union, types.UnionType):
        return " | ".join(type_text(a) for a in args)
    if origin in (list, dict, tuple, set):
        return f"{origin.__name__}[{', '.join(type_text(a) for a in args)}]"
    raise TypeError(f"no signature text for {tp!r}")


def _optional(text: str) -> str:
    return text if text.endswith("| None") or text == "None" else f"{text} | None"


def _wrap(head: str, params: list[str], tail: str) -> list[str]:
    """``def name(params) -> Any:`` on as few lines as fit."""
    line = f"    {head}({', '.join(params)}){tail}"
    if len(line) <= _WIDTH:
        return [line]
    lines, current = [], f"    {head}("
    for p in params:
        piece = p + ", "
        if len(current) + len(piece) > _WIDTH:
            lines.append(current.rstrip())
            current = " " * 12
        current += piece
    lines.append(current.rstrip(", ") + f"){tail}")
    return lines


def method_source(route: Route) -> list[str]:
    model = route.request
    fields = model.model_fields if model is not None else {}
    positional = [*route.path_params, *(n for n, f in fields.items() if f.is_required() and n not in route.path_params)]
    takes_tab = (route.tabbed or "tab_id" in fields) and "tab_id" not in positional
    keywords = [n for n in fields if n not in positional and n != "tab_id"]
    params = ["self"] + [f"{n}: {type_text(fields[n].annotation)}" for n in positional]
    named = ([f"tab_id: str | None = None"] if takes_tab else []) + [
        f"{n}: {_optional(type_text(fields[n].annotation))} = None" for n in keywords]
    if named:
        params += ["*", *named]
    args = ", ".join([json.dumps(route.name), "tab_id" if takes_tab else "None", *(f"{n}={n}" for n in positional + keywords)])
    doc = f"{route.method} {route.path}: {route.summary}."
    defaults = [f"{n}={json.dumps(fields[n].default)}" for n in keywords
                if fields[n].default is not PydanticUndefined and fields[n].default not in (None, False)]
    if defaults:
        doc += f" Defaults: {', '.join(defaults)}."
    lines = _wrap(f"def {route.name}", params, " -> Any:")
    doc_lines = textwrap.wrap(doc, _WIDTH - 11)
    if len(doc_lines) == 1:
        lines.append(f'        """{doc}"""')
    else:
        lines += [f'        """{doc_lines[0]}', *(f"        {d}" for d in doc_lines[1:]), '        """']
    lines.append(f"        return self.call({args})")
    return lines


def generated_routes() -> list[Route]:
    """The routes without a hand-written method in ``client._Routes``."""
    from pinchtab.client import _Routes

    written = set(vars(_Routes))
    return [r for r in ROUTES if r.name not in written]


def source() -> str:
    out = [_HEADER]
    for route in generated_routes():
        out.append("\n".join(method_source(route)) + "\n")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    text = source()
    if "--check" in argv:
        if TARGET.read_text() != text:
            print(f"{TARGET.name} is stale: run `{REGENERATE}`", file=sys.stderr)
            return 1
        return 0
    TARGET.write_text(text)
    print(f"wrote {TARGET} ({text.count(chr(10))} lines)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
