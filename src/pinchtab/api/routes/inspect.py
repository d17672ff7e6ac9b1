"""Inspecting a tab: /capture (screenshot + snapshot from one moment), timing and Web Vitals,
Chromium's per-tab counters, and the cheap readiness probe ``/tabs/{id}/state``."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.base import TabScoped
from pinchtab.models.inspect import AttrQuery, CaptureQuery, CountQuery, ElementQuery, TabRef


ROUTES: tuple[Route, ...] = (
    Route("capture", ("GET",), "/capture", CaptureQuery,
          "Screenshot and accessibility snapshot from the same moment, with node bounding boxes",
          mcp=("pinchtab_capture",), cli=("capture",)),
    Route("count", ("GET",), "/count", CountQuery, "How many elements a selector matches (a ref: 0 or 1)",
          cli=("count",)),
    Route("value", ("GET",), "/value", ElementQuery, "The value of an input (or the text of another element)",
          cli=("value",)),
    Route("attr", ("GET",), "/attr", AttrQuery, "An attribute of an element (null when absent)", cli=("attr",)),
    Route("box", ("GET",), "/box", ElementQuery, "The element's box in viewport CSS pixels", cli=("box",)),
    Route("visible", ("GET",), "/visible", ElementQuery, "Is the element visible?", cli=("visible",)),
    Route("enabled", ("GET",), "/enabled", ElementQuery, "Is the element enabled?", cli=("enabled",)),
    Route("checked", ("GET",), "/checked", ElementQuery, "Is the checkbox or radio checked?", cli=("checked",)),
    Route("timing", ("GET",), "/timing", TabScoped,
          "Navigation timing and Core Web Vitals: ttfbMs, fcpMs, lcpMs, cls, domContentLoadedMs, loadMs, resources",
          mcp=("pinchtab_timing",), cli=("timing",)),
    Route("tab_metrics", ("GET",), "/tabs/{tab_id}/metrics", TabRef,
          "Chromium's counters for the tab: JS heap, DOM nodes, listeners, documents, frames", tabbed=False,
          cli=("tab-metrics",)),
    Route("tab_state", ("GET",), "/tabs/{tab_id}/state", TabRef,
          "Readiness probe: load state, open dialog, network idle, actionability (ready, caution, blocked)",
          tabbed=False, mcp=("pinchtab_tab_state",), cli=("tab-state",)),
)
