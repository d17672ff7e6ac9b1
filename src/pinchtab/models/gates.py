"""The ``security.*`` switches a route needs on before it does anything: each defined once, read by the
route table (403 naming the key) and by the browser layer where a page can reach the same capability."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Gate:
    """A ``security.*`` switch that must be on before a route does anything."""

    key: str  # the config key under ``security``, camelCase: "allowEvaluate"
    code: str  # the error code when it is off: "evaluate_disabled"
    what: str  # what is off, for the message: "evaluate"
    env: str | None = None  # an environment variable that turns it on

    @property
    def attr(self) -> str:
        return re.sub(r"(?<!^)(?=[A-Z])", "_", self.key).lower()

    def message(self) -> str:
        how = f" (or {self.env}=1)" if self.env else ""
        return f"{self.what} is disabled: set security.{self.key} to true in the config{how}"


EVALUATE = Gate("allowEvaluate", "evaluate_disabled", "evaluate", "PINCHTAB_ALLOW_EVALUATE")
COOKIES = Gate("allowCookies", "cookies_disabled", "cookie access", "PINCHTAB_ALLOW_COOKIES")
DOWNLOAD = Gate("allowDownload", "download_disabled", "download", "PINCHTAB_ALLOW_DOWNLOAD")
UPLOAD = Gate("allowUpload", "upload_disabled", "upload", "PINCHTAB_ALLOW_UPLOAD")
CLIPBOARD = Gate("allowClipboard", "clipboard_disabled", "clipboard", "PINCHTAB_ALLOW_CLIPBOARD")
NETWORK_INTERCEPT = Gate("allowNetworkIntercept", "network_intercept_disabled", "network interception",
                         "PINCHTAB_ALLOW_NETWORK_INTERCEPT")
STATE_EXPORT = Gate("allowStateExport", "state_export_disabled", "state export", "PINCHTAB_ALLOW_STATE_EXPORT")
SCREENCAST = Gate("allowScreencast", "screencast_disabled", "screencast")
# Recording captures the same frames; PinchTab names it apart in its 403.
RECORDING = Gate("allowScreencast", "recording_disabled", "recording")
