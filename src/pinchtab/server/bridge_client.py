"""The server's HTTP client to its bridges (the instance manager's and the proxy's control calls):
here, apart from the proxy, so the server can spawn its default bridge before FastAPI loads
(``pinchtab.server.boot``)."""

from __future__ import annotations

import ssl

import httpx


def ssl_context(ca_file: str | None = None) -> ssl.SSLContext:
    """Verify ``https://`` bridges against ``ca_file`` alone when given, else the system CAs."""
    return ssl.create_default_context(cafile=ca_file) if ca_file else ssl.create_default_context()


def make_client(ca_file: str | None = None) -> httpx.AsyncClient:
    """One client for all bridges' control calls (health, tabs): kept-alive connections, no proxies
    from the environment, no read timeout of its own (bridges bound navigation and waits
    themselves), ``https://`` bridges verified against ``ca_file`` when given."""
    return httpx.AsyncClient(
        verify=ssl_context(ca_file),
        timeout=httpx.Timeout(None, connect=5.0),
        limits=httpx.Limits(max_connections=256, max_keepalive_connections=64, keepalive_expiry=60),
        trust_env=False,
    )
