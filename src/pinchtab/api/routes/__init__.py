"""All routes, one file per concern. A new concern adds its module here."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.api.routes import (
    attach, audit, core, dashboard, emulation, frames, inspect, interaction, markup, media, observe, orchestrator,
    scrape, state, tab_control,
)

ROUTES: tuple[Route, ...] = (
    core.ROUTES + interaction.ROUTES + orchestrator.ROUTES + attach.ROUTES + observe.ROUTES + emulation.ROUTES
    + inspect.ROUTES + state.ROUTES + tab_control.ROUTES + frames.ROUTES + markup.ROUTES + audit.ROUTES + media.ROUTES
    + scrape.ROUTES + dashboard.ROUTES
)
SOCKETS = media.SOCKETS

ROUTES_BY_NAME: dict[str, Route] = {r.name: r for r in ROUTES}
if len(ROUTES_BY_NAME) != len(ROUTES):
    raise RuntimeError("two routes share a name")


def route(name: str) -> Route:
    return ROUTES_BY_NAME[name]


def bridge_routes() -> tuple[Route, ...]:
    """What a bridge serves."""
    return tuple(r for r in ROUTES if r.owner != "server")


def server_routes() -> tuple[Route, ...]:
    """What the server answers itself (the rest of the bridge routes it proxies)."""
    return tuple(r for r in ROUTES if r.owner in ("server", "both"))


def proxied_routes() -> tuple[Route, ...]:
    """Bridge routes the server forwards to the instance owning the tab."""
    return tuple(r for r in ROUTES if r.owner == "bridge")
