"""Emulation: viewport and device, geolocation, network conditions, headers, media features, and
(beyond PinchTab) user agent, locale, timezone, and all of them at once (``POST /emulation``)."""

from __future__ import annotations

from pydantic import Field, model_validator

from pinchtab.models.base import MAX_IMAGE_SIDE, TabScoped

_W = "Viewport width in CSS pixels."
_H = "Viewport height in CSS pixels."


def check_device_size(width: int | None, height: int | None, scale: float | None) -> None:
    """A viewport times its device scale factor must stay paintable (10000 x 10000 at 10 aborted Chromium)."""
    factor = scale or 1.0
    for side, name in ((width, "width"), (height, "height")):
        if side is not None and side * factor > MAX_IMAGE_SIDE:
            raise ValueError(f"{name} x deviceScaleFactor is {side * factor:g} device pixels; "
                             f"the limit is {MAX_IMAGE_SIDE}")


class ViewportRequest(TabScoped):
    width: int = Field(..., ge=1, le=10000, description=_W)
    height: int = Field(..., ge=1, le=10000, description=_H)
    device_scale_factor: float = Field(1.0, ge=0.1, le=10, description="Device pixel ratio (2 for a retina phone).")
    mobile: bool = Field(False, description="Mobile mode: meta viewport honoured, overlay scrollbars; implies touch.")
    touch: bool | None = Field(None, description="Touch events on (default: same as mobile).")

    @model_validator(mode="after")
    def _paintable(self) -> "ViewportRequest":
        check_device_size(self.width, self.height, self.device_scale_factor)
        return self


class GeolocationRequest(TabScoped):
    latitude: float = Field(..., ge=-90, le=90, description="Latitude in degrees.")
    longitude: float = Field(..., ge=-180, le=180, description="Longitude in degrees.")
    accuracy: float = Field(1.0, ge=0, description="Accuracy in metres.")


class OfflineRequest(TabScoped):
    offline: bool = Field(..., description="Cut the tab off the network (true) or bring it back (false).")
    latency: float = Field(0, ge=0, description="Added round-trip latency in ms (throttling).")
    download_throughput: float = Field(-1, ge=-1, description="Download bytes/s (-1: unthrottled).")
    upload_throughput: float = Field(-1, ge=-1, description="Upload bytes/s (-1: unthrottled).")


class HeadersRequest(TabScoped):
    headers: dict[str, str] = Field(..., description="Extra HTTP headers sent with every request of the tab "
                                                    "(an empty object clears them; Host, Content-Length, "
                                                    "Connection and other framing headers are refused).")


class CredentialsRequest(TabScoped):
    username: str = Field(..., max_length=1024, description="HTTP authentication user name for the tab's requests "
                                                            "(an empty string clears the credentials).")
    password: str = Field("", max_length=1024, description="Its password (never echoed).")


class MediaRequest(TabScoped):
    feature: str = Field(..., min_length=1, description="CSS media feature, e.g. prefers-color-scheme, "
                                                        "prefers-reduced-motion.")
    value: str = Field(..., description="Its value, e.g. dark, light, reduce (empty: stop emulating it).")


class UserAgentRequest(TabScoped):
    user_agent: str = Field(..., min_length=1, description="User-Agent string (navigator.userAgent and the header).")
    accept_language: str | None = Field(None, description="Accept-Language header and navigator.language, e.g. de-DE.")
    platform: str | None = Field(None, description="navigator.platform, e.g. iPhone.")


class LocaleRequest(TabScoped):
    locale: str = Field(..., description="ICU locale for Intl and dates, e.g. de-DE (empty: the system's).")


class TimezoneRequest(TabScoped):
    timezone_id: str = Field(..., min_length=1, description="IANA timezone, e.g. Europe/Berlin.")


class EmulateRequest(TabScoped):
    """Several emulations in one call; omitted fields stay as they are."""

    width: int | None = Field(None, ge=1, le=10000, description=_W + " Needs height.")
    height: int | None = Field(None, ge=1, le=10000, description=_H + " Needs width.")
    device_scale_factor: float | None = Field(None, ge=0.1, le=10, description="Device pixel ratio.")
    mobile: bool | None = Field(None, description="Mobile mode (with width and height).")
    user_agent: str | None = Field(None, description="User-Agent string.")
    locale: str | None = Field(None, description="ICU locale, e.g. de-DE.")
    timezone_id: str | None = Field(None, description="IANA timezone, e.g. Europe/Berlin.")
    color_scheme: str | None = Field(None, description="prefers-color-scheme: dark or light.")
    latitude: float | None = Field(None, ge=-90, le=90, description="Geolocation latitude (with longitude).")
    longitude: float | None = Field(None, ge=-180, le=180, description="Geolocation longitude (with latitude).")
    offline: bool | None = Field(None, description="Offline (true) or online (false).")

    @model_validator(mode="after")
    def _paintable(self) -> "EmulateRequest":
        check_device_size(self.width, self.height, self.device_scale_factor)
        return self
