"""The frame scope (PinchTab's /frame): which frame selector-based actions, snapshots and /text
work in."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.base import TabScoped
from pinchtab.models.tab_control import FrameRequest


ROUTES: tuple[Route, ...] = (
    Route("frame", ("GET",), "/frame", TabScoped, "The tab's frame scope (main or a frame)",
          answers_tab=True),
    Route("set_frame", ("POST",), "/frame", FrameRequest,
          "Scope selector-based actions, /snapshot and /text to a frame (target main resets it)",
          answers_tab=True, mcp=("pinchtab_frame",), cli=("frame",)),
)
