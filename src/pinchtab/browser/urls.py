"""URL rules for navigation: http, https and about:blank; a bare host gets https:// (http:// for loopback)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from pinchtab.errors import BadRequest

ALWAYS_ALLOWED = ("http", "https")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")
# host[:port][/path...] with no scheme: "example.com", "localhost:8080/x", "127.0.0.1"
_BARE_HOST = re.compile(r"^(localhost|[\w-]+(\.[\w-]+)+|\[[0-9a-fA-F:]+\])(:\d+)?([/?#].*)?$")


def normalize_url(url: object, allowed_schemes: Iterable[str] = ()) -> str:
    """Return the URL to load, or raise ``BadRequest`` / ``Forbidden`` saying why not."""
    if not isinstance(url, str) or not url.strip():
        raise BadRequest("url is required", "missing_url")
    url = url.strip()
    if url == "about:blank":
        return url
    extra = {s.lower().rstrip(":") for s in allowed_schemes}
    match = _SCHEME.match(url)
    # "localhost:8080" parses as scheme "localhost"; treat host:port as a bare host.
    if match and not re.match(r"^[^:/]+:\d+([/?#]|$)", url):
        scheme = match.group(1).lower()
        if scheme not in ALWAYS_ALLOWED and scheme not in extra:
            raise BadRequest(
                f"URL scheme {scheme!r} is not allowed: use http://, https:// or about:blank",
                "scheme_not_allowed",
            )
        if scheme in ALWAYS_ALLOWED:
            parts = urlsplit(url)
            if not parts.hostname:
                raise BadRequest(f"invalid URL {url!r}: no host", "invalid_url")
        return url
    if " " in url or not _BARE_HOST.match(url):
        raise BadRequest(f"invalid URL {url!r}: must start with http:// or https://", "invalid_url")
    # A local dev server rarely speaks TLS; everything else gets https.
    host = urlsplit("//" + url).hostname or ""
    if host == "localhost" or host.startswith("127.") or host == "::1":
        return "http://" + url
    return "https://" + url
