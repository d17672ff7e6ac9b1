"""Chrome DevTools Protocol: launcher, connection (pipe or websocket), sessions."""

from pinchtab.cdp.connection import (
    BrowserGone,
    CDPError,
    Connection,
    PipeTransport,
    Session,
    WebSocketTransport,
)
from pinchtab.cdp.launcher import ChromeProcess, browser_binary, find_chrome

__all__ = [
    "BrowserGone",
    "CDPError",
    "ChromeProcess",
    "Connection",
    "PipeTransport",
    "Session",
    "WebSocketTransport",
    "browser_binary",
    "find_chrome",
]
