"""Everything a tab records about its page (console, errors, network) and the Fetch domain it
shares between request blocking and network routes: one object per tab, subscribed to the tab's
CDP session when the tab is attached. Sizes come from the ``observe`` config section."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from pinchtab.browser.observe.console_log import ConsoleLog
from pinchtab.browser.observe.interception import Interceptor
from pinchtab.browser.observe.network_log import NetworkEntry, NetworkLog, RetainedBody
from pinchtab.cdp import CDPError, Session
from pinchtab.config import ObserveConfig

# What Chromium keeps of response bodies for Network.getResponseBody (per tab, then per resource).
BODY_BUFFER_TOTAL = 16 * 1024 * 1024
BODY_BUFFER_RESOURCE = 4 * 1024 * 1024
# Bodies read at once for retention (observe.retainBodies); beyond it a body is skipped, as in PinchTab.
RETAIN_CONCURRENCY = 4


class TabObserver:
    def __init__(self, session: Session, limits: ObserveConfig | None = None) -> None:
        limits = limits or ObserveConfig()
        self.session = session
        self.enabled = limits.enabled
        self.logs = ConsoleLog(limits.console_buffer, limits.error_buffer, limits.max_message_chars)
        self.network = NetworkLog(limits.network_buffer)
        self.interceptor = Interceptor(session, limits.max_route_rules)
        self.limits = limits
        self._retaining: set[asyncio.Task[None]] = set()
        # Set (and replaced) whenever a retained body settles: detail requests wait on it.
        self.body_settled = asyncio.Event()

    def subscribe(self) -> list[Callable[[], None]]:
        s, net, logs = self.session, self.network, self.logs
        return [
            s.on("Runtime.consoleAPICalled", logs.on_console),
            s.on("Runtime.exceptionThrown", logs.on_exception),
            s.on("Log.entryAdded", logs.on_log_entry),
            s.on("Network.requestWillBeSent", net.on_request),
            s.on("Network.responseReceived", net.on_response),
            s.on("Network.loadingFinished", self._on_finished),
            s.on("Network.loadingFailed", net.on_failed),
            s.on("Fetch.requestPaused", self.interceptor.on_paused),
            s.on("Fetch.authRequired", self.interceptor.on_auth_required),
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

    def _on_finished(self, params: dict[str, Any]) -> None:
        entry = self.network.on_finished(params)
        if entry is None or not self.limits.retain_bodies:
            return
        net = self.network
        if net.retained_bytes >= self.limits.retain_body_tab_bytes:
            entry.body = RetainedBody(pending=False, skip_reason="retention budget exceeded")
        elif len(self._retaining) >= RETAIN_CONCURRENCY:
            entry.body = RetainedBody(pending=False, skip_reason="retention concurrency limit reached")
        else:
            entry.body = RetainedBody()
            task = asyncio.get_running_loop().create_task(self._retain(entry, entry.body))
            self._retaining.add(task)
            task.add_done_callback(self._retaining.discard)

    async def _retain(self, entry: NetworkEntry, body: RetainedBody) -> None:
        try:
            res = await self.response_body(entry.request_id)
        except CDPError as exc:
            body.error = exc.cdp_message
        else:
            text = res["body"]
            room = min(self.limits.retain_body_max_bytes, self.limits.retain_body_tab_bytes - self.network.retained_bytes)
            if room <= 0:
                body.skip_reason = "retention budget exceeded"
            else:
                body.truncated = len(text) > room
                body.text, body.base64 = text[:room], res["base64Encoded"]
                if self.network.get(entry.request_id) is entry:  # still in the log
                    self.network.retained_bytes += len(body.text)
        finally:
            body.pending = False
            self.body_settled.set()
            self.body_settled = asyncio.Event()

    async def response_body(self, request_id: str) -> dict[str, Any]:
        res = await self.session.send("Network.getResponseBody", {"requestId": request_id})
        return {"body": res.get("body", ""), "base64Encoded": bool(res.get("base64Encoded"))}
