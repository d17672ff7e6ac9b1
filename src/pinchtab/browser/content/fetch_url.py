"""``GET /download?url=``: fetch a URL with the browser's session (its cookies for that URL and its
user agent), refusing private, loopback and link-local addresses unless
``security.downloadAllowedDomains`` allows the host.

Every hop is checked: the host is resolved here, each address must be public, and the connection
goes to the address that was checked (the Host header and TLS name stay the host's), so a DNS
answer that changes between check and connect cannot reach an internal address. Redirects are
followed by hand, each new location checked the same way.
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urljoin, urlsplit

from pinchtab.browser.core.urls import host_allowed
from pinchtab.errors import BadRequest, PinchtabError, Timeout

if TYPE_CHECKING:
    from pinchtab.config import SecurityConfig

MAX_REDIRECTS = 10
TIMEOUT = 30.0


class DownloadTooLarge(PinchtabError):
    status = 413
    default_code = "download_too_large"


class UpstreamError(PinchtabError):
    status = 502
    default_code = "download_failed"


@dataclass(frozen=True)
class Fetched:
    url: str
    body: bytes
    content_type: str


def _blocked(msg: str) -> BadRequest:
    return BadRequest(f"download blocked: {msg}", "download_blocked")


async def check_url(url: str, sec: "SecurityConfig") -> tuple[str, str | None]:
    """The host and the address to connect to (None: any, the host is explicitly allowed)."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise _blocked(f"only http and https URLs can be downloaded, not {parts.scheme or 'a bare path'!r}")
    host = (parts.hostname or "").lower()
    if not host:
        raise _blocked(f"no host in {url!r}")
    allowed = sec.download_allowed_domains
    if allowed:
        if not host_allowed(host, allowed):
            raise _blocked(f"host {host} is not allowed by security.downloadAllowedDomains")
        return host, None
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, parts.port or (443 if parts.scheme == "https" else 80),
                                                              type=socket.SOCK_STREAM)
    except OSError:
        raise _blocked(f"cannot resolve host {host}") from None
    addresses = [info[4][0] for info in infos]
    for addr in addresses:
        ip = ipaddress.ip_address(addr.split("%")[0])
        if not ip.is_global or ip.is_multicast:
            raise _blocked(f"{host} is a private/internal address ({ip}); allow it in security.downloadAllowedDomains")
    return host, addresses[0]


def _pinned(url: str, address: str | None) -> tuple[str, dict[str, str], dict[str, str]]:
    """The URL to request (at the checked address), its Host header and the TLS server name."""
    if address is None:
        return url, {}, {}
    parts = urlsplit(url)
    ip = f"[{address}]" if ":" in address else address
    netloc = ip + (f":{parts.port}" if parts.port else "")
    host_header = parts.hostname + (f":{parts.port}" if parts.port else "")
    ext = {"sni_hostname": parts.hostname} if parts.scheme == "https" else {}
    return parts._replace(netloc=netloc).geturl(), {"Host": host_header}, ext  # type: ignore[return-value]


async def fetch(url: str, sec: "SecurityConfig", *, cookies_for, user_agent: str) -> Fetched:
    """GET ``url`` (following checked redirects) with the browser's cookies; at most
    ``sec.download_max_bytes``; a ``.gz`` file comes back decompressed."""
    import httpx

    limit = sec.download_max_bytes
    async with httpx.AsyncClient(timeout=TIMEOUT, follow_redirects=False, trust_env=False) as client:
        for _hop in range(MAX_REDIRECTS + 1):
            host, address = await check_url(url, sec)
            target, headers, ext = _pinned(url, address)
            cookie = await cookies_for(url)
            headers.update({"User-Agent": user_agent, "Accept": "*/*"})
            if cookie:
                headers["Cookie"] = cookie
            try:
                async with client.stream("GET", target, headers=headers, extensions=ext) as res:
                    if res.status_code in (301, 302, 303, 307, 308) and res.headers.get("location"):
                        url = urljoin(url, res.headers["location"])
                        continue
                    if res.status_code >= 400:
                        raise UpstreamError(f"the remote server answered HTTP {res.status_code} for {url}")
                    declared = res.headers.get("content-length")
                    if declared and declared.isdigit() and int(declared) > limit:
                        raise DownloadTooLarge(f"download too large: {declared} bytes, max {limit} (security.downloadMaxBytes)")
                    body = bytearray()
                    async for chunk in res.aiter_bytes():
                        body += chunk
                        if len(body) > limit:
                            raise DownloadTooLarge(f"download too large: more than {limit} bytes (security.downloadMaxBytes)")
                    content_type = res.headers.get("content-type", "application/octet-stream")
                    encoded = res.headers.get("content-encoding", "").lower() == "gzip"
            except httpx.TimeoutException:
                raise Timeout(f"download of {url} timed out after {TIMEOUT:g} s", "download_timeout") from None
            except httpx.HTTPError as exc:
                raise UpstreamError(f"download of {url} failed: {exc}") from None
            data = bytes(body)
            if urlsplit(url).path.lower().endswith(".gz") and not encoded:
                data = _gunzip(data, limit)
                content_type = _unzipped_type(url)
            return Fetched(url, data, content_type.split(";")[0].strip() or "application/octet-stream")
    raise BadRequest(f"too many redirects (more than {MAX_REDIRECTS})", "too_many_redirects", status=422)


def _gunzip(data: bytes, limit: int) -> bytes:
    d = zlib.decompressobj(16 + zlib.MAX_WBITS)
    try:
        out = d.decompress(data, limit + 1)
    except zlib.error:
        return data  # served as .gz but not gzip: hand it over as it is
    if len(out) > limit:
        raise DownloadTooLarge(f"download too large once decompressed: more than {limit} bytes")
    return out


def _unzipped_type(url: str) -> str:
    path = urlsplit(url).path.lower()
    for suffix, kind in ((".xml.gz", "application/xml"), (".json.gz", "application/json"),
                         (".txt.gz", "text/plain"), (".csv.gz", "text/plain")):
        if path.endswith(suffix):
            return kind
    return "application/octet-stream"


