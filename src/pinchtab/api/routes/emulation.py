"""Emulation: viewport and device, geolocation, network conditions, headers, media features, and
(beyond PinchTab) user agent, locale, timezone, and all of them at once (``POST /emulation``)."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.base import TabScoped
from pinchtab.models.emulation import (
    CredentialsRequest, EmulateRequest, GeolocationRequest, HeadersRequest, LocaleRequest, MediaRequest, OfflineRequest,
    TimezoneRequest, UserAgentRequest, ViewportRequest,
)


def _emulation(name: str, path: str, model: type[TabScoped], summary: str, **kw: object) -> Route:
    return Route(name, ("POST",), path, model, summary, **kw)  # type: ignore[arg-type]


ROUTES: tuple[Route, ...] = (
    _emulation("emulate", "/emulation", EmulateRequest,
               "Several emulations at once: viewport, user agent, locale, timezone, colour scheme, position, offline",
               mcp=("pinchtab_emulate",), cli=("emulate",)),
    _emulation("emulate_viewport", "/emulation/viewport", ViewportRequest,
               "Emulate a viewport: size, device scale factor, mobile, touch", cli=("viewport",)),
    _emulation("emulate_geolocation", "/emulation/geolocation", GeolocationRequest,
               "Emulate the position navigator.geolocation reports (and allow it)", cli=("geolocation",)),
    _emulation("emulate_offline", "/emulation/offline", OfflineRequest,
               "Take the tab offline or online; optional latency and throughput throttling", cli=("offline",)),
    _emulation("emulate_headers", "/emulation/headers", HeadersRequest,
               "Extra HTTP headers on every request of the tab", cli=("headers",)),
    _emulation("emulate_credentials", "/emulation/credentials", CredentialsRequest,
               "Answer the tab's HTTP authentication challenges with this user name and password (empty clears)",
               cli=("credentials",)),
    _emulation("emulate_media", "/emulation/media", MediaRequest,
               "Emulate a CSS media feature (prefers-color-scheme: dark, ...)", cli=("media",)),
    _emulation("emulate_user_agent", "/emulation/useragent", UserAgentRequest,
               "Override the user agent (and Accept-Language, platform)", cli=("useragent",)),
    _emulation("emulate_locale", "/emulation/locale", LocaleRequest, "Override the locale Intl and dates use",
               cli=("locale",)),
    _emulation("emulate_timezone", "/emulation/timezone", TimezoneRequest, "Override the timezone",
               cli=("timezone",)),
)
