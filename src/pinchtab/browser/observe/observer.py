"""Everything a tab records about its page (console, errors, network) and the Fetch domain it
shares between request blocking and network routes: one object per tab, subscribed to the tab's
CDP session when the tab is attached. Sizes come from the ``observe`` config section."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pinchtab.browser.observe.console_log import ConsoleLog
from pinchtab.browser.observe.interception import Interceptor
from pinchtab.browser.observe.network_log import NetworkLog
from pinchtab.cdp import Session
from pinchtab.config import ObserveConfig

# What Chromium keeps of response bodies for Network.getResponseBody (per tab, then per resource).
BODY_BUFFER_TOTAL = 16 * 1024 * 1024
BODY_BUFFER_RESOURCE = 4 * 1024 * 1024


class TabObserver:
    def __init__(self, session: Session, limits: ObserveConfig | None = None) -> None:
        limits = limits or ObserveConfig()
        self.session = session
        self.enabled = limits.enabled
        self.logs = ConsoleLog(limits.console_buffer, limits.error_buffer, limits.max_message_chars)
        self.network = NetworkLog(limits.network_buffer)
        self.interceptor = Interceptor(session, limits.max_route_rules)

    def subscribe(self) -> list[Callable[[], None]]:
        s, net, logs = self.session, self.network, self.logs
        return [
            s.on("Runtime.consoleAPICalled", logs.on_console),
            s.on("Runtime.exceptionThrown", logs.on_exception),
            s.on("Log.entryAdded", logs.on_log_entry),
            s.on("Network.requestWillBeSent", net.on_request),
            s.on("Network.responseReceived", net.on_response),
            s.on("Network.loadingFinished", net.on_finished),
            s.on("Network.loadingFailed", net.on_failed),
            s.on("Fetch.requestPaused", self.interceptor.on_paused),
        ]

    async def enable(self) -> None:
        if not self.enabled:
            return
        s = self.session
        await asyncio.gather(
            s.send("Runtime.enable"),
            s.send("Log.enable"),
            s.send("Network.enable", {"maxTotalBufferSize": BODY_BUFFER_TOTAL,
                                      "maxResourceBufferSize": BODY_BUFFER_RESOURCE}),
        )

    async def response_body(self, request_id: str) -> dict[str, Any]:
        res = await self.session.send("Network.getResponseBody", {"requestId": request_id})
        return {"body": res.get("body", ""), "base64Encoded": bool(res.get("base64Encoded"))}
