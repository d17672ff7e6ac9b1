"""The frame scope (PinchTab's /frame): which frame selector-based actions, snapshots and /text
work in."""

from __future__ import annotations

from pydantic import Field

from pinchtab.models.base import TabScoped


class FrameRequest(TabScoped):
    target: str = Field(..., description="main; an iframe's ref or selector (in the current scope); a frame id, "
                                         "name or URL.")
