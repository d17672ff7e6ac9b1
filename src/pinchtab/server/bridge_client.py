"""What the server's modules need of its client to its bridges (upstream.py) without loading it:
the error it raises and its TLS context. Apart from upstream.py so the instance manager can spawn
the default bridge before aiohttp loads (``pinchtab.server.boot``)."""

from __future__ import annotations

import ssl


class UpstreamError(Exception):
    """The bridge could not be reached, timed out or answered garbage (or refused a websocket:
    ``status`` is its answer's)."""

    def __init__(self, message: str, status: int | None = None) -> None:
        super().__init__(message)
        self.status = status


def ssl_context(ca_file: str | None = None) -> ssl.SSLContext | bool:
    """Verify ``https://`` bridges against ``ca_file`` alone when given, else the system CAs: True,
    aiohttp's own verifying context, made once at its import (one of our own cost ~40 ms of CPU for
    every server app, most of which never reach a bridge over https)."""
    return ssl.create_default_context(cafile=ca_file) if ca_file else True
