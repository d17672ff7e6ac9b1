"""What an audit gathers on one loaded page: its title, console, network log and broken assets, the
interactive elements of its snapshot, axe-core's accessibility findings, its timing, a screenshot and
the facts the security rules read. Each collector that fails is noted and the rest still run."""

from __future__ import annotations

import asyncio
import base64
import time
from collections.abc import Awaitable
from typing import TYPE_CHECKING, Any, TypeVar

from pinchtab.audit import a11y, security
from pinchtab.audit.report import Collected
from pinchtab.browser.content import capture, page_metrics
from pinchtab.browser.observe.console_log import BROWSER_SOURCES
from pinchtab.browser.observe.network_log import NetworkEntry, broken_assets
from pinchtab.browser.page import snapshot
from pinchtab.errors import BrowserError, PinchtabError

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

T = TypeVar("T")
QUIET_CEILING_S = 5.0
AXE_TIMEOUT_S = 30.0


# Answered requests of these types hold no picture back: a script reads their bodies, or never does
# (a fetch nobody awaits stays in flight for Chromium until its tab closes).
_SCRIPT_TYPES = frozenset({"Fetch", "XHR"})


def _holds_audit(entry: NetworkEntry | None) -> bool:
    """A request still in flight the audit waits for: unanswered, or an answered one whose body the
    page shows (not an error page, not a script's fetch)."""
    return entry is None or not entry.status or (entry.status < 400 and entry.resource_type not in _SCRIPT_TYPES)


def _quiet(tab: "Tab", quiet_s: float) -> bool:
    net = tab.observer.network
    return (not any(_holds_audit(net.get(rid)) for rid in net.inflight)
            and time.monotonic() - net.last_activity >= quiet_s)


async def settle(tab: "Tab", quiet_s: float) -> None:
    """Until the network has been quiet for ``quiet_s`` (``browser.auditQuietMs``; at most
    ``QUIET_CEILING_S``): late subresources (async fetches, images) land before collecting. A
    response answered 400 or more, or a fetch's, does not have to finish: its body may never be read."""
    deadline = time.monotonic() + QUIET_CEILING_S
    while not _quiet(tab, quiet_s) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)


async def run_axe(tab: "Tab") -> dict[str, Any]:
    """axe-core's verdict on the page (loaded once per document into pinchtab's isolated world)."""
    if not await tab.eval_in_world("function () { return typeof axe !== 'undefined'; }"):
        res = await tab.send("Runtime.evaluate", {"expression": a11y.axe_source(), "contextId": await tab.world()},
                             timeout=AXE_TIMEOUT_S)
        if res.get("exceptionDetails"):
            raise BrowserError(f"axe-core did not load in the page: {res['exceptionDetails'].get('text', '')}",
                               "axe_failed")
    violations = await tab.eval_in_world(a11y.AXE_RUN_JS, sorted(a11y.RULES), timeout=AXE_TIMEOUT_S)
    return a11y.score(violations or [])


async def _interactive(tab: "Tab") -> list[dict[str, Any]]:
    snap = await snapshot.capture(tab, interactive=True, whole=True)
    return [{"ref": n.ref, "role": n.role, "name": n.name, "disabled": n.disabled}
            for n in snap.nodes if n.interactive]


async def _screenshot(tab: "Tab") -> str:
    png, _, _ = await capture.take(tab)
    return base64.b64encode(png).decode()


async def collect(tab: "Tab", url: str, enabled: frozenset[str]) -> Collected:
    out = Collected(url=url)

    async def attempt(stage: str, work: Awaitable[T]) -> T | None:
        try:
            return await work
        except PinchtabError as exc:  # CDP errors too
            out.errors.append(f"{stage}: {exc.message}")
            return None

    _, out.title = await tab.location()
    if "console" in enabled:
        # The page's own console calls, as PinchTab's report lists them (failed loads are brokenAssets).
        out.console = [e for e in tab.observer.logs.console_entries() if e.get("source") not in BROWSER_SOURCES]
    if "network" in enabled or "security" in enabled:
        entries = tab.observer.network.select()
        requests = [e.to_json() for e in entries]
        if "network" in enabled:
            out.network, out.broken = requests, broken_assets(entries)
    if "elements" in enabled:
        out.interactive = await attempt("snapshot", _interactive(tab))
    if "a11y" in enabled:
        out.a11y = await attempt("a11y", run_axe(tab))
    if "timing" in enabled:
        out.timing = await attempt("timing", page_metrics.timing(tab))
    if "screenshot" in enabled:
        out.screenshot = await attempt("screenshot", _screenshot(tab))
    if "security" in enabled:
        forms = await attempt("security", tab.eval_in_world(security.FORM_FACTS_JS))
        out.security = security.evaluate(url, out.title, requests, forms or [])
    return out
