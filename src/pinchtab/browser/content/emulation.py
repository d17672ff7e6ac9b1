"""Device and environment emulation of one tab over CDP: viewport, touch, user agent, locale,
timezone, geolocation, media features (colour scheme), offline and throttling, extra headers.

Every override lasts for the tab's life (across navigations). Chromium's refusals (an unknown
timezone or locale) become 400s.
"""

from __future__ import annotations

import zoneinfo
from typing import TYPE_CHECKING, Any

from pinchtab.cdp import CDPError
from pinchtab.errors import BadRequest

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page


async def _send(tab: "Page", method: str, params: dict[str, Any], what: str) -> None:
    try:
        await tab.send(method, params)
    except CDPError as exc:
        raise BadRequest(f"{what}: {exc.cdp_message}", "emulation_rejected") from exc


async def viewport(tab: "Page", *, width: int, height: int, device_scale_factor: float = 1.0, mobile: bool = False,
                   touch: bool | None = None) -> dict[str, Any]:
    await _send(tab, "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": device_scale_factor, "mobile": mobile},
                "viewport")
    touch = mobile if touch is None else touch
    await _send(tab, "Emulation.setTouchEmulationEnabled", {"enabled": touch, "maxTouchPoints": 5 if touch else 1},
                "touch")
    return {"width": width, "height": height, "deviceScaleFactor": device_scale_factor, "mobile": mobile,
            "touch": touch}


async def geolocation(tab: "Page", *, latitude: float, longitude: float, accuracy: float = 1.0) -> dict[str, Any]:
    await _send(tab, "Emulation.setGeolocationOverride",
                {"latitude": latitude, "longitude": longitude, "accuracy": accuracy}, "geolocation")
    # Without the permission the page's getCurrentPosition is refused before the override is read.
    origin = _origin(tab.url)
    if origin:
        try:
            await tab.send("Browser.grantPermissions", {"permissions": ["geolocation"], "origin": origin})
        except CDPError:
            pass  # an attached browser may refuse; the override still stands
    return {"latitude": latitude, "longitude": longitude, "accuracy": accuracy}


def _origin(url: str) -> str | None:
    if not url.startswith(("http://", "https://")):
        return None
    scheme, _, rest = url.partition("://")
    return f"{scheme}://{rest.split('/', 1)[0]}"


async def network_conditions(tab: "Page", *, offline: bool, latency: float = 0, download: float = -1,
                             upload: float = -1) -> dict[str, Any]:
    await _send(tab, "Network.emulateNetworkConditions",
                {"offline": offline, "latency": latency, "downloadThroughput": download, "uploadThroughput": upload},
                "network conditions")
    return {"offline": offline, "latency": latency, "downloadThroughput": download, "uploadThroughput": upload}


# Headers that frame or route the request itself: set on every request of a tab, Host broke each of its
# navigations. The fetch standard forbids pages to set them for the same reason.
FORBIDDEN_HEADERS = frozenset({
    "host", "content-length", "connection", "keep-alive", "transfer-encoding", "te", "trailer", "upgrade",
    "expect", "proxy-connection", "proxy-authorization", "http2-settings",
})


async def extra_headers(tab: "Page", headers: dict[str, str]) -> None:
    for name, value in headers.items():
        if any(c in name + value for c in "\r\n\0") or not name.strip():
            raise BadRequest(f"invalid header {name!r}: names must be non-empty and neither may hold CR, LF or NUL",
                             "bad_header")
        if name.strip().lower() in FORBIDDEN_HEADERS:
            raise BadRequest(f"header {name!r} cannot be set: it frames or routes the request itself "
                             f"(refused: {', '.join(sorted(FORBIDDEN_HEADERS))})", "bad_header")
    await _send(tab, "Network.setExtraHTTPHeaders", {"headers": headers}, "headers")


async def media(tab: "Page", features: dict[str, str], media_type: str | None = None) -> None:
    """``features`` is the tab's whole set (an empty value resets that feature)."""
    params: dict[str, Any] = {"features": [{"name": k, "value": v} for k, v in features.items()]}
    if media_type is not None:
        params["media"] = media_type
    await _send(tab, "Emulation.setEmulatedMedia", params, "media")


async def user_agent(tab: "Page", user_agent: str, accept_language: str | None = None,
                     platform: str | None = None) -> None:
    params: dict[str, Any] = {"userAgent": user_agent}
    if accept_language:
        params["acceptLanguage"] = accept_language
    if platform:
        params["platform"] = platform
    await _send(tab, "Emulation.setUserAgentOverride", params, "user agent")


async def locale(tab: "Page", value: str) -> None:
    await _send(tab, "Emulation.setLocaleOverride", {"locale": value} if value else {}, "locale")


async def timezone(tab: "Page", timezone_id: str) -> None:
    # Chromium takes any name and falls back to UTC silently: refuse what is not an IANA zone.
    try:
        zoneinfo.ZoneInfo(timezone_id)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        raise BadRequest(f"unknown timezone {timezone_id!r}: use an IANA name such as Europe/Berlin",
                         "bad_timezone") from None
    await _send(tab, "Emulation.setTimezoneOverride", {"timezoneId": timezone_id}, "timezone")
