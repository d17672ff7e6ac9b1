"""One exception type per HTTP status family.

The browser and find layers raise these; the HTTP layer turns them into
``{"error": message, "code": code}`` with ``status``. Nothing here knows about HTTP
frameworks, so the same errors serve the bridge, the server, the client and the CLI.
"""

from __future__ import annotations


class PinchtabError(Exception):
    """Base error: a human sentence that says what to do next, a snake_case code, a status."""

    status: int = 500
    default_code: str = "internal_error"

    def __init__(self, message: str, code: str | None = None, *, status: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code or self.default_code
        if status is not None:
            self.status = status
        # More fields for the error body (e.g. the results before a failed action in a batch).
        self.extra: dict[str, object] = {}

    def to_dict(self) -> dict[str, object]:
        return {"error": self.message, "code": self.code, **self.extra}


class BadRequest(PinchtabError, ValueError):
    status = 400
    default_code = "bad_request"


class Forbidden(PinchtabError):
    status = 403
    default_code = "forbidden"


class NotFound(PinchtabError):
    status = 404
    default_code = "not_found"


class Conflict(PinchtabError):
    status = 409
    default_code = "conflict"


class Locked(PinchtabError):
    """The tab is locked by another owner (PinchTab's 423 tab_locked)."""

    status = 423
    default_code = "tab_locked"


class TooMany(PinchtabError):
    """A configured cap is reached (tabs per instance)."""

    status = 429
    default_code = "limit_reached"


class BrowserError(PinchtabError):
    """Chromium or CDP failed: crashed browser, protocol error, occluded element."""

    status = 500
    default_code = "browser_error"


class Timeout(PinchtabError):
    status = 504
    default_code = "timeout"


class NotReady(PinchtabError):
    status = 503
    default_code = "not_ready"


class PageScriptError(BrowserError):
    """A script pinchtab ran in the page threw (message holds the JavaScript exception)."""

    default_code = "script_error"
