"""How a tab is doing: navigation timing and Core Web Vitals, Chromium's performance counters, and
a cheap readiness probe (load state, open dialog, in-flight requests)."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from pinchtab.errors import PageScriptError

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

# Waits for the load event (at most 2 s more) and a first paint, then reads the navigation entry,
# paint entries and buffered LCP / layout-shift observers. All values in ms from navigation start.
TIMING_JS = r"""async () => {
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const start = performance.now();
  const navEntry = () => performance.getEntriesByType('navigation')[0];
  while (performance.now() - start < 2000) {
    const nav = navEntry();
    if (document.readyState === 'complete' && (!nav || nav.loadEventEnd > 0)) break;
    await sleep(50);
  }
  const buffered = (type) => new Promise((resolve) => {
    const seen = [];
    try {
      const po = new PerformanceObserver((list) => seen.push(...list.getEntries()));
      po.observe({type, buffered: true});
      setTimeout(() => { seen.push(...po.takeRecords()); po.disconnect(); resolve(seen); }, 50);
    } catch (e) { resolve(seen); }
  });
  let paints = performance.getEntriesByType('paint');
  for (let i = 0; i < 20 && !paints.length; i++) { await sleep(50); paints = performance.getEntriesByType('paint'); }
  const [lcp, shifts] = await Promise.all([buffered('largest-contentful-paint'), buffered('layout-shift')]);
  const nav = navEntry();
  const fcp = paints.find((e) => e.name === 'first-contentful-paint');
  const resources = performance.getEntriesByType('resource');
  const pos = (v) => (v > 0 ? v : 0);
  return {
    ttfbMs: pos(nav ? nav.responseStart : 0),
    fcpMs: pos(fcp ? fcp.startTime : 0),
    lcpMs: pos(lcp.length ? lcp[lcp.length - 1].startTime : 0),
    cls: shifts.reduce((s, e) => (e.hadRecentInput ? s : s + e.value), 0),
    domContentLoadedMs: pos(nav ? nav.domContentLoadedEventEnd : 0),
    loadMs: pos(nav ? nav.loadEventEnd : 0),
    resourceCount: resources.length,
    transferSizeBytes: (nav ? nav.transferSize || 0 : 0) + resources.reduce((s, e) => s + (e.transferSize || 0), 0),
  };
}"""


async def timing(tab: "Page") -> dict[str, Any]:
    values = await tab.eval_in_world(TIMING_JS, timeout=10)
    for key in ("ttfbMs", "fcpMs", "lcpMs", "domContentLoadedMs", "loadMs"):
        values[key] = round(float(values.get(key) or 0), 1)
    values["cls"] = round(float(values.get("cls") or 0), 4)
    return values


_COUNTERS = {"Documents": "documents", "Frames": "frames", "JSEventListeners": "listeners", "Nodes": "nodes",
             "LayoutCount": "layoutCount", "RecalcStyleCount": "recalcStyleCount", "TaskDuration": "taskDurationS",
             "ScriptDuration": "scriptDurationS", "LayoutDuration": "layoutDurationS"}


async def performance_metrics(tab: "Page") -> dict[str, Any]:
    await tab.send("Performance.enable", {"timeDomain": "timeTicks"})
    try:
        res = await tab.send("Performance.getMetrics")
    finally:
        await tab.send("Performance.disable")
    raw = {m["name"]: m["value"] for m in res.get("metrics", [])}
    out: dict[str, Any] = {
        "jsHeapUsedMB": round(raw.get("JSHeapUsedSize", 0) / 1048576, 2),
        "jsHeapTotalMB": round(raw.get("JSHeapTotalSize", 0) / 1048576, 2),
    }
    for name, key in _COUNTERS.items():
        if name in raw:
            value = raw[name]
            out[key] = round(value, 3) if key.endswith("S") else int(value)
    return out


async def ready_state(tab: "Page") -> str | None:
    try:
        return await tab.eval_in_world("() => document.readyState", timeout=2)
    except (PageScriptError, Exception):  # a busy or navigating page: unknown, not an error
        return None


def network_idle(tab: "Page", quiet_s: float = 0.5) -> bool:
    net = tab.observer.network
    return not net.inflight and time.monotonic() - net.last_activity >= quiet_s


def _open_dialog(tab: "Page") -> dict[str, Any] | None:
    """The dialog waiting for an answer, when the tab keeps dialogs open (``tab.dialogs``)."""
    tracker = getattr(tab, "dialogs", None)
    return getattr(tracker, "pending", None) if tracker is not None else None


async def tab_state(tab: "Page") -> dict[str, Any]:
    out: dict[str, Any] = {"tabId": tab.id, "url": tab.url, "title": tab.title}
    dialog = _open_dialog(tab)
    out["dialogPresent"] = dialog is not None
    if dialog is not None:
        out["dialog"] = dialog
    actionability = "blocked" if dialog is not None or tab.crashed else "ready"
    load: dict[str, Any] = {"state": "unknown", "navigationInProgress": False}
    state = None if dialog is not None else await ready_state(tab)
    if state:
        load["readyState"] = state
        load["state"] = state
        if state == "loading":
            load["navigationInProgress"] = True
    idle = network_idle(tab)
    load["networkIdle"] = idle
    if state == "complete" and not idle:
        load["state"] = "busy"
    if actionability == "ready" and load["state"] in ("loading", "interactive", "busy"):
        actionability = "caution"
    out["load"] = load
    out["actionability"] = actionability
    if tab.crashed:
        out["crashed"] = True
    return out
