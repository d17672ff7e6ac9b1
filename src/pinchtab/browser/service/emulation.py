"""Service methods of ``api/routes/emulation.py``."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from pinchtab.models import emulation as r
from pinchtab.browser.content import emulation as emu
from pinchtab.errors import BadRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.browser.core.tab import Tab

# Media features a tab emulates: CDP replaces the whole set on each call, so it is kept here.
_MEDIA: "weakref.WeakKeyDictionary[Tab, dict[str, str]]" = weakref.WeakKeyDictionary()


async def _set_media(tab: "Tab", feature: str, value: str) -> None:
    features = _MEDIA.setdefault(tab, {})
    if value:
        features[feature] = value
    else:
        features.pop(feature, None)
    await emu.media(tab, {**features, feature: value})


class EmulationOps:
    browser: "Browser"

    async def emulate_viewport(self, req: r.ViewportRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            done = await emu.viewport(tab, width=req.width, height=req.height,
                                      device_scale_factor=req.device_scale_factor, mobile=req.mobile, touch=req.touch)
            return {"tabId": tab.id, **done, "status": "applied"}

    async def emulate_geolocation(self, req: r.GeolocationRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            done = await emu.geolocation(tab, latitude=req.latitude, longitude=req.longitude, accuracy=req.accuracy)
            return {"tabId": tab.id, **done, "status": "applied"}

    async def emulate_offline(self, req: r.OfflineRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            done = await emu.network_conditions(tab, offline=req.offline, latency=req.latency,
                                                download=req.download_throughput, upload=req.upload_throughput)
            return {"tabId": tab.id, **done, "status": "offline" if req.offline else "online"}

    async def emulate_headers(self, req: r.HeadersRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            await emu.extra_headers(tab, req.headers)
            return {"tabId": tab.id, "headers": sorted(req.headers), "status": "applied"}

    async def emulate_credentials(self, req: r.CredentialsRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            creds = (req.username, req.password) if req.username else None
            await tab.observer.interceptor.set_credentials(creds)
            if creds is None:
                return {"tabId": tab.id, "status": "cleared"}
            return {"tabId": tab.id, "username": req.username, "status": "applied"}

    async def emulate_media(self, req: r.MediaRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            await _set_media(tab, req.feature, req.value)
            return {"tabId": tab.id, "feature": req.feature, "value": req.value, "status": "applied"}

    async def emulate_user_agent(self, req: r.UserAgentRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            await emu.user_agent(tab, req.user_agent, req.accept_language, req.platform)
            return {"tabId": tab.id, "userAgent": req.user_agent, "status": "applied"}

    async def emulate_locale(self, req: r.LocaleRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            await emu.locale(tab, req.locale)
            return {"tabId": tab.id, "locale": req.locale, "status": "applied"}

    async def emulate_timezone(self, req: r.TimezoneRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            await emu.timezone(tab, req.timezone_id)
            return {"tabId": tab.id, "timezoneId": req.timezone_id, "status": "applied"}

    async def emulate(self, req: r.EmulateRequest) -> dict[str, Any]:
        if (req.width is None) != (req.height is None):
            raise BadRequest("width and height go together", "bad_viewport")
        if (req.latitude is None) != (req.longitude is None):
            raise BadRequest("latitude and longitude go together", "bad_geolocation")
        applied: dict[str, Any] = {}
        async with self.browser.use_tab(req.tab_id) as tab:
            if req.width is not None and req.height is not None:
                applied["viewport"] = await emu.viewport(
                    tab, width=req.width, height=req.height, device_scale_factor=req.device_scale_factor or 1.0,
                    mobile=bool(req.mobile))
            if req.user_agent:
                await emu.user_agent(tab, req.user_agent)
                applied["userAgent"] = req.user_agent
            if req.locale is not None:
                await emu.locale(tab, req.locale)
                applied["locale"] = req.locale
            if req.timezone_id:
                await emu.timezone(tab, req.timezone_id)
                applied["timezoneId"] = req.timezone_id
            if req.color_scheme is not None:
                await _set_media(tab, "prefers-color-scheme", req.color_scheme)
                applied["colorScheme"] = req.color_scheme
            if req.latitude is not None and req.longitude is not None:
                applied["geolocation"] = await emu.geolocation(tab, latitude=req.latitude, longitude=req.longitude)
            if req.offline is not None:
                await emu.network_conditions(tab, offline=req.offline)
                applied["offline"] = req.offline
            if not applied:
                raise BadRequest("nothing to emulate: give width and height, userAgent, locale, timezoneId, "
                                 "colorScheme, latitude and longitude, or offline", "nothing_to_emulate")
            return {"tabId": tab.id, "applied": applied, "status": "applied"}
