"""Tab coordination: an owner's lock, and the human handoff that pauses actions."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.tab_control import HandoffRequest, HandoffStatus, LockRequest, ResumeRequest, UnlockRequest


ROUTES: tuple[Route, ...] = (
    Route("lock_tab", ("POST",), "/lock", LockRequest, "Lock a tab for an owner (409 while another owner holds it)",
          cli=("lock",)),
    Route("unlock_tab", ("POST",), "/unlock", UnlockRequest, "Release an owner's lock", cli=("unlock",)),
    Route("handoff", ("POST",), "/tabs/{tab_id}/handoff", HandoffRequest,
          "Pause actions on the tab for a human (409 tab_paused_handoff until resumed)", tabbed=False,
          cli=("handoff",)),
    Route("handoff_status", ("GET",), "/tabs/{tab_id}/handoff", HandoffStatus,
          "Handoff state of the tab: paused_handoff or active", tabbed=False, cli=("handoff-status",)),
    Route("resume", ("POST",), "/tabs/{tab_id}/resume", ResumeRequest, "End a handoff: actions run again",
          tabbed=False, cli=("resume",)),
)
