"""The dashboard page: plain ES modules and CSS shipped in the package (``static/``), served at
``/``, ``/dashboard`` and ``/dashboard/<file>``. No build step and nothing from a CDN.

The page is public (it shows a login form when the server has a token); everything it reads comes
from the API, which the token guards (``Authorization`` or the login cookie).
"""

from __future__ import annotations

from pathlib import Path

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Router

from pinchtab.errors import NotFound
from pinchtab.web import FastJSON

STATIC = Path(__file__).with_name("static")
_TYPES = {".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8"}
# The page's own files only; its scripts run under this policy (no inline script, no other origin).
_CSP = ("default-src 'self'; img-src 'self' data: blob:; connect-src 'self'; style-src 'self'; script-src 'self'; "
        "frame-ancestors 'none'")
PUBLIC_PREFIX = "/dashboard"


def _files() -> dict[str, Path]:
    return {p.relative_to(STATIC).as_posix(): p for p in STATIC.rglob("*") if p.suffix in _TYPES}


def mount_dashboard(router: Router) -> None:
    files = _files()  # a name must be one of these: no path is built from the request

    def serve(name: str) -> Response:
        path = files.get(name)
        if path is None:
            return FastJSON({"error": f"no dashboard file {name!r}", "code": NotFound.default_code}, status_code=404)
        headers = {"Content-Security-Policy": _CSP, "Cache-Control": "no-cache", "X-Content-Type-Options": "nosniff"}
        return Response(path.read_bytes(), media_type=_TYPES[path.suffix], headers=headers)

    async def index(request: Request) -> Response:
        return serve("index.html")

    async def asset(request: Request) -> Response:
        return serve(request.path_params["name"])

    for path in ("/", "/dashboard", "/dashboard/"):
        router.add_route(path, index, methods=["GET"], include_in_schema=False)
    router.add_route("/dashboard/{name:path}", asset, methods=["GET"], include_in_schema=False)
