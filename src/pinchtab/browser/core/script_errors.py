"""A CDP ``Runtime`` answer whose script threw -> ``PageScriptError`` (shared by every caller of
scripts: the tab's isolated world, frames' worlds)."""

from __future__ import annotations

from typing import Any

from pinchtab.errors import PageScriptError


def raise_script_error(res: dict[str, Any]) -> None:
    details = res.get("exceptionDetails")
    if not details:
        return
    exc = details.get("exception") or {}
    text = exc.get("description") or details.get("text") or "script error"
    raise PageScriptError(text.splitlines()[0] if text else "script error")
