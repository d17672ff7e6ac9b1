"""Live against staging (``pinchtab compare``): the two runs' pages paired by path, each pair's
screenshots diffed pixel by pixel (Pillow decodes, numpy compares) and its data diffed (console errors,
broken assets, accessibility score, load time beyond run-to-run noise). A page on one side only is
``removed`` (live only) or ``added`` (staging only)."""

from __future__ import annotations

import base64
import io
from datetime import datetime, timezone
from typing import Any

import numpy as np
from PIL import Image

from pinchtab.audit import SCHEMA_VERSION

TOLERANCE = 0.1  # per-pixel colour distance (0..1) below which two renders count as equal (anti-aliasing)
LOAD_NOISE_MS = 1000.0  # load-time deltas below this are run-to-run noise, not drift
HIGHLIGHT = (255, 0, 64)


def rel_path(base: str, url: str) -> str:
    """``url`` relative to ``base`` ("" for the base itself), or ``url`` when it is elsewhere."""
    base = base.rstrip("/")
    if url == base:
        return ""
    return url[len(base) + 1:] if url.startswith(base + "/") else url


def _rgb(b64: str) -> np.ndarray:
    with Image.open(io.BytesIO(base64.b64decode(b64))) as img:
        return np.asarray(img.convert("RGB"), dtype=np.int16)


def visual_diff(live_b64: str, staging_b64: str) -> tuple[float, bytes | None]:
    """The share of differing pixels in percent (over the larger of the two sizes) and, when any
    differ, the live screenshot with them highlighted (PNG)."""
    live, staging = _rgb(live_b64), _rgb(staging_b64)
    h, w = max(live.shape[0], staging.shape[0]), max(live.shape[1], staging.shape[1])
    a = np.zeros((h, w, 3), np.int16)
    b = np.zeros((h, w, 3), np.int16)
    a[: live.shape[0], : live.shape[1]] = live
    b[: staging.shape[0], : staging.shape[1]] = staging
    distance = np.sqrt(((a - b).astype(np.float32) ** 2).sum(axis=2)) / (255.0 * np.sqrt(3.0))
    changed = distance > TOLERANCE
    count = int(changed.sum())
    percent = round(100.0 * count / (h * w), 4)
    if not count:
        return percent, None
    annotated = (a * 0.35 + 165).astype(np.uint8)  # the page faded, the changes on top
    annotated[changed] = HIGHLIGHT
    out = io.BytesIO()
    Image.fromarray(annotated, "RGB").save(out, "PNG")
    return percent, out.getvalue()


def _console_errors(page: dict[str, Any]) -> int:
    return sum(1 for e in page["browser"].get("consoleLogs", ()) if e["level"] == "error")


def data_drift(live: dict[str, Any], staging: dict[str, Any]) -> list[dict[str, str]]:
    drift = []

    def note(field: str, a: Any, b: Any) -> None:
        drift.append({"field": field, "live": str(a), "staging": str(b)})

    if _console_errors(live) != _console_errors(staging):
        note("consoleErrors", _console_errors(live), _console_errors(staging))
    lb, sb = len(live["browser"].get("brokenAssets", ())), len(staging["browser"].get("brokenAssets", ()))
    if lb != sb:
        note("brokenAssets", lb, sb)
    la, sa = live["browser"].get("accessibilityScore", 0), staging["browser"].get("accessibilityScore", 0)
    if la != sa:
        note("accessibilityScore", la, sa)
    ll = live["browser"].get("timingMetrics", {}).get("loadMs", 0)
    sl = staging["browser"].get("timingMetrics", {}).get("loadMs", 0)
    if abs(ll - sl) > LOAD_NOISE_MS:
        note("loadMs", ll, sl)
    return drift


def compare(live_base: str, staging_base: str, live: dict[str, Any], staging: dict[str, Any],
            generated_at: datetime | None = None) -> tuple[dict[str, Any], dict[str, bytes]]:
    """The ``ComparisonReport`` and the highlighted diff images (PNG) of changed pages, by path."""
    staged = {rel_path(staging_base, p["url"]): p for p in staging["pages"]}
    pages, images, seen = [], {}, set()
    for lp in live["pages"]:
        path = rel_path(live_base, lp["url"])
        seen.add(path)
        sp = staged.get(path)
        if sp is None:
            pages.append({"path": path, "status": "removed", "liveUrl": lp["url"], "drift": []})
            continue
        entry: dict[str, Any] = {"path": path, "status": "compared", "liveUrl": lp["url"], "stagingUrl": sp["url"],
                                 "drift": data_drift(lp, sp)}
        errors = [f"{side}: {p['error']}" for side, p in (("live", lp), ("staging", sp)) if p.get("error")]
        if errors:
            entry["error"] = "; ".join(errors)
        if lp.get("screenshot") and sp.get("screenshot"):
            entry["diffPercentage"], image = visual_diff(lp["screenshot"], sp["screenshot"])
            if image:
                images[path] = image
        pages.append(entry)
    pages += [{"path": path, "status": "added", "stagingUrl": p["url"], "drift": []}
              for path, p in staged.items() if path not in seen]
    has_diffs = any(p["status"] != "compared" or p["drift"] or p.get("diffPercentage") for p in pages)
    when = generated_at or datetime.now(timezone.utc)
    report = {"schemaVersion": SCHEMA_VERSION,
              "generatedAt": when.isoformat(timespec="seconds").replace("+00:00", "Z"),
              "liveBase": live_base, "stagingBase": staging_base, "pages": pages, "hasDiffs": has_diffs}
    return report, images
