"""Tab coordination: an owner's lock, the human handoff that pauses actions, and the frame scope."""

from __future__ import annotations

from typing import Any

from pydantic import Field

from pinchtab.models.base import ApiModel, Leased, TabScoped


class LockRequest(TabScoped):
    owner: str = Field(..., min_length=1, description="Who holds the lock (an agent id).")
    timeout_sec: float | None = Field(None, gt=0, le=86400, description="Seconds until the lock expires (default 300).")
    ttl: float | None = Field(None, gt=0, le=86400, description="Same as timeoutSec.")


class UnlockRequest(TabScoped):
    owner: str = Field(..., min_length=1, description="The owner that locked the tab.")


class HandoffRequest(Leased):
    tab_id: str = Field(..., description="Tab ID (from GET /tabs).")
    reason: str = Field("manual_intervention", description="Why a human takes over (captcha, login, ...).")
    timeout_ms: int = Field(0, ge=0, description="Resume by itself after this many ms (0: never).")


class HandoffStatus(ApiModel):
    tab_id: str = Field(..., description="Tab ID (from GET /tabs).")


class ResumeRequest(Leased):
    tab_id: str = Field(..., description="Tab ID (from GET /tabs).")
    status: str | None = Field(None, description="How the handoff ended (completed, failed, ...).")
    resolved_data: dict[str, Any] | None = Field(None, description="Anything the human hands back.")


# The frame scope (PinchTab's /frame): which frame selector-based actions, snapshots and /text
# work in.
class FrameRequest(TabScoped):
    target: str = Field(..., description="main; an iframe's ref or selector (in the current scope); a frame id, "
                                         "name or URL.")
