"""URL rules for navigation: http, https and about:blank; a bare host gets https:// (http:// for loopback)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from urllib.parse import urlsplit

from pinchtab.errors import BadRequest, Forbidden

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
            check_host(url)
        return url
    if " " in url or not _BARE_HOST.match(url):
        raise BadRequest(f"invalid URL {url!r}: must start with http:// or https://", "invalid_url")
    check_host("//" + url)
    # A local dev server rarely speaks TLS; everything else gets https.
    host = urlsplit("//" + url).hostname or ""
    if host == "localhost" or host.startswith("127.") or host == "::1":
        return "http://" + url
    return "https://" + url


_BAD_HOST_CHARS = re.compile(r"[%\s<>^`{|}\\\"\x00-\x1f\x7f]")


def check_host(url: str) -> None:
    """A host Chromium can load: not malformed ([::1), not percent-encoded, a port in 1-65535."""
    try:
        parts = urlsplit(url)
        host, port = parts.hostname, parts.port
    except ValueError as exc:  # "Invalid IPv6 URL", "Port out of range 0-65535"
        raise BadRequest(f"invalid URL {url.lstrip('/')!r}: {exc}", "invalid_url") from None
    if not host:
        raise BadRequest(f"invalid URL {url.lstrip('/')!r}: no host", "invalid_url")
    if _BAD_HOST_CHARS.search(host):
        raise BadRequest(f"invalid URL {url.lstrip('/')!r}: the host {host!r} has characters a host name cannot have",
                         "invalid_url")
    if port == 0:
        raise BadRequest(f"invalid URL {url.lstrip('/')!r}: port 0", "invalid_url")


def host_allowed(host: str, allowed: Iterable[str]) -> bool:
    """``host`` is one of ``allowed``: a name, ``*.example.com`` (it and its subdomains) or ``*``."""
    host = host.lower().rstrip(".").strip("[]")
    for pattern in allowed:
        p = pattern.strip().lower().rstrip(".").strip("[]")
        if p == "*" or p == host or (p.startswith("*.") and (host.endswith(p[1:]) or host == p[2:])):
            return True
    return False


def check_allowed_domain(url: str, allowed: list[str]) -> str | None:
    """PinchTab's IDPI allow-list (``security.allowedDomains``; empty: every host): None when ``url``
    may be loaded, else why not. about:blank and URLs without a host (data:) are not checked."""
    if not allowed:
        return None
    host = urlsplit(url).hostname
    if not host or host_allowed(host, allowed):
        return None
    return f"host {host} is not in security.allowedDomains ({', '.join(allowed)})"


def refuse_domain(url: str, allowed: list[str], strict: bool) -> str | None:
    """Raise 403 idpi_domain_blocked for a host off the allow-list in strict mode; else the warning."""
    reason = check_allowed_domain(url, allowed)
    if reason is not None and strict:
        raise Forbidden(f"navigation blocked by IDPI: {reason}; add the host to security.allowedDomains "
                        "(or turn security.idpi.strictMode off to be warned instead)", "idpi_domain_blocked")
    return reason
