"""Service methods of ``api/routes/observe.py``: console, errors, the network log and routes."""

from __future__ import annotations

import asyncio
import json
import time
from typing import TYPE_CHECKING, Any

from pinchtab import __version__
from pinchtab.models import observe as r
from pinchtab.browser.core.state_files import safe_file, state_folder
from pinchtab.browser.observe import network_stream
from pinchtab.browser.observe.interception import make_rule
from pinchtab.browser.observe.network_log import NetworkEntry, broken_assets, har_entry, har_log
from pinchtab.cdp import CDPError
from pinchtab.config import Config
from pinchtab.errors import NotFound
from pinchtab.models import EventStream, TabScoped

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.browser.core.tab import Tab

EXPORT_BODY_WAIT_SEC = 10.0  # for a retained body still being read when an export reaches its entry


class ObserveOps:
    browser: "Browser"
    config: Config

    async def _observed(self, tab_id: str | None) -> "Tab":
        # Reading a log needs no tab lock (nothing is sent to the page); the tab must exist.
        return await self.browser.tab(tab_id)

    async def console(self, req: r.LogQuery) -> dict[str, Any]:
        tab = await self._observed(req.tab_id)
        return {"tabId": tab.id, "console": tab.observer.logs.console_entries(req.limit)}

    async def clear_console(self, req: TabScoped) -> dict[str, Any]:
        tab = await self._observed(req.tab_id)
        tab.observer.logs.console.clear()
        return {"success": True, "tabId": tab.id}

    async def errors(self, req: r.LogQuery) -> dict[str, Any]:
        tab = await self._observed(req.tab_id)
        return {"tabId": tab.id, "errors": tab.observer.logs.error_entries(req.limit)}

    async def clear_errors(self, req: TabScoped) -> dict[str, Any]:
        tab = await self._observed(req.tab_id)
        tab.observer.logs.errors.clear()
        return {"success": True, "tabId": tab.id}

    # -- network log -------------------------------------------------------------------------------

    def _select(self, tab: "Tab", req: r.NetworkQuery) -> list[Any]:
        return tab.observer.network.select(filter=req.filter, method=req.method, status=req.status, type=req.type,
                                           limit=req.limit or None)

    async def network(self, req: r.NetworkQuery) -> dict[str, Any]:
        tab = await self._observed(req.tab_id)
        if req.broken:
            broken = broken_assets(self._select(tab, req))
            return {"tabId": tab.id, "broken": broken, "count": len(broken)}
        entries = [e.to_json(req.redact) for e in self._select(tab, req)]
        # "items" too: PinchTab answers both names.
        return {"tabId": tab.id, "entries": entries, "items": entries, "count": len(entries)}

    async def network_detail(self, req: r.NetworkDetailQuery) -> dict[str, Any]:
        tab = await self._observed(req.tab_id)
        entry = tab.observer.network.get(req.request_id)
        if entry is None:
            raise NotFound(f"request {req.request_id} is not in this tab's network log (GET /network lists it)",
                           "request_not_found")
        if req.body and entry.finished and not entry.failed and entry.body is not None:
            if req.body_mode == "retained-preferred" and entry.body.pending:
                await self._settled(tab, entry, req.timeout_ms / 1000)
        out: dict[str, Any] = {"tabId": tab.id, "entry": entry.to_json(req.redact)}
        if not req.body:
            return out
        if not entry.finished or entry.failed:
            out["bodyError"] = "the request has not finished" if not entry.failed else "the request failed"
        elif req.body_mode != "live-only" and entry.body is not None and (
                entry.body.text is not None or entry.body.pending or entry.body.error or req.body_mode == "retained-only"):
            out.update(entry.body.answer())
        elif req.body_mode == "retained-only":
            out.update({"bodySkipped": True, "bodySkipReason": "retention disabled (observe.retainBodies)"})
        else:
            try:
                body = await tab.observer.response_body(entry.request_id)
                out["responseBody"] = body["body"]
                out["bodySource"] = "live"
                if body["base64Encoded"]:
                    out["base64Encoded"] = True
            except CDPError as exc:
                out["bodyError"] = exc.cdp_message
        return out

    async def _settled(self, tab: "Tab", entry: NetworkEntry, timeout: float) -> None:
        """Until the entry's retained body is read (or ``timeout`` s have passed)."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while entry.body is not None and entry.body.pending and (left := end - loop.time()) > 0:
            settled = tab.observer.body_settled  # taken before the check above is stale: no missed wake-up
            if not entry.body.pending:
                return
            try:
                await asyncio.wait_for(settled.wait(), left)
            except asyncio.TimeoutError:
                return

    async def network_clear(self, req: TabScoped) -> dict[str, Any]:
        if req.tab_id:
            tab = await self._observed(req.tab_id)
            tab.observer.network.clear()
            return {"cleared": True, "tabId": tab.id}
        for tab in list(self.browser.tabs.values()):
            tab.observer.network.clear()
        return {"cleared": True, "all": True}

    async def network_export(self, req: r.NetworkExportQuery) -> dict[str, Any] | str:
        tab = await self._observed(req.tab_id)
        entries = []
        for e in self._select(tab, req):
            body = await self._export_body(tab, e) if req.body and e.finished and not e.failed else None
            entries.append(har_entry(e, redact=req.redact, body=body))
        if req.output == "file":
            name = req.path or time.strftime(f"network-%Y%m%d-%H%M%S.{'har' if req.format == 'har' else 'ndjson'}")
            out = network_stream.ExportFile(self._export_path(name), req.format, __version__)
            for entry in entries:
                out.add(entry)
            return {"path": out.close(keep_empty=True), "entries": out.count, "format": req.format}
        if req.format == "ndjson":
            return "".join(json.dumps(e, ensure_ascii=False) + "\n" for e in entries)
        return har_log(entries, __version__)

    def _export_path(self, name: str) -> Any:
        return safe_file(state_folder(self.config, "exports"), name.rsplit("/", 1)[-1])

    async def _export_body(self, tab: "Tab", e: NetworkEntry) -> dict[str, Any]:
        """The body for a HAR entry: the retained one (waited for while it is being read, rather than
        read twice), else read now; ``{"error": ...}`` when Chromium no longer has it."""
        if e.body is not None and e.body.pending:
            await self._settled(tab, e, EXPORT_BODY_WAIT_SEC)
        if e.body is not None and e.body.text is not None:
            return {"body": e.body.text, "base64Encoded": e.body.base64}
        try:
            return await tab.observer.response_body(e.request_id)
        except CDPError as exc:
            return {"error": exc.cdp_message}

    async def network_stream(self, req: r.NetworkStreamQuery) -> EventStream:
        tab = await self._observed(req.tab_id)
        return EventStream(network_stream.network_events(tab.observer.network, req))

    async def network_export_stream(self, req: r.NetworkExportStreamQuery) -> EventStream:
        tab = await self._observed(req.tab_id)
        out = network_stream.ExportFile(self._export_path(req.path), req.format, __version__)

        async def body(e: NetworkEntry) -> dict[str, Any] | None:
            return await self._export_body(tab, e)

        return EventStream(network_stream.export_events(tab.observer.network, req, out, body if req.body else None))

    # -- routes --------------------------------------------------------------------------------------

    async def network_routes(self, req: TabScoped) -> dict[str, Any]:
        tab = await self._observed(req.tab_id)
        return {"tabId": tab.id, "rules": tab.observer.interceptor.list_rules()}

    async def network_route(self, req: r.NetworkRouteRequest) -> dict[str, Any]:
        rule = make_rule(req.pattern or "", req.action, body=req.body, content_type=req.content_type,
                         status=req.status, resource_type=req.resource_type, method=req.method)
        async with self.browser.use_tab(req.tab_id) as tab:
            await tab.observer.interceptor.add_rule(rule)
            return {"ok": True, "tabId": tab.id, "rules": tab.observer.interceptor.list_rules()}

    async def network_unroute(self, req: r.NetworkUnrouteRequest) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            removed = await tab.observer.interceptor.remove_rules(req.pattern)
            return {"ok": True, "tabId": tab.id, "removed": removed, "rules": tab.observer.interceptor.list_rules()}
