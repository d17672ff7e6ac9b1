"""Screenshots of a part of the page (an element, the full document, rescaled) and ``/capture``:
a screenshot and an accessibility snapshot taken together, with each node's box in the image's
coordinates, so a model that reads pixels can act on refs from the same moment."""

from __future__ import annotations

import asyncio
import base64
import itertools
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinchtab.browser.core.state_files import stamped_name, write_file
from pinchtab.browser.page import snapshot as snapshots
from pinchtab.browser.page.nodes import Node
from pinchtab.cdp import CDPError
from pinchtab.errors import BadRequest, Conflict, NotFound
from pinchtab.models import MAX_IMAGE_SIDE

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

VIEW_JS = "() => [innerWidth, innerHeight, scrollX, scrollY, devicePixelRatio]"

# The element's box in document coordinates (CSS pixels).
ELEMENT_BOX_JS = r"""(selector) => {
  let el;
  try { el = document.querySelector(selector); } catch (e) { return 'bad-selector'; }
  if (!el) return null;
  const r = el.getBoundingClientRect();
  return {x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height};
}"""

_epochs = itertools.count(1)


async def view(tab: "Page") -> dict[str, float]:
    w, h, sx, sy, dpr = await tab.eval_in_world(VIEW_JS)
    return {"w": w, "h": h, "scrollX": sx, "scrollY": sy, "dpr": dpr}


async def element_clip(tab: "Page", selector: str) -> dict[str, float]:
    box = await tab.eval_in_world(ELEMENT_BOX_JS, selector)
    if box == "bad-selector":
        raise BadRequest(f"invalid CSS selector {selector!r}", "bad_selector")
    if box is None:
        raise NotFound(f"no element matches selector {selector!r}", "selector_not_found")
    if box["width"] <= 0 or box["height"] <= 0:
        raise BadRequest(f"the element {selector!r} has no size to capture", "element_not_visible")
    return box


async def take(tab: "Page", *, fmt: str = "png", quality: int | None = None, scale: float = 1.0,
               selector: str | None = None, beyond_viewport: bool = False) -> tuple[bytes, str, dict[str, float] | None]:
    """The image, its coordinate space (viewport, document or clip) and the clip when there is one."""
    params: dict[str, Any] = {"format": fmt}
    if fmt == "jpeg":
        params["quality"] = 80 if quality is None else quality
    clip: dict[str, float] | None = None
    space = "viewport"
    if selector:
        clip = await element_clip(tab, selector)
        space = "clip"
        params["captureBeyondViewport"] = True
    elif beyond_viewport:
        metrics = await tab.send("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics.get("contentSize")
        clip = {"x": 0, "y": 0, "width": size["width"], "height": size["height"]}
        space = "document"
        params["captureBeyondViewport"] = True
    elif scale != 1.0:
        v = await view(tab)
        clip = {"x": v["scrollX"], "y": v["scrollY"], "width": v["w"], "height": v["h"]}
    if clip is not None:
        await _check_paintable(tab, clip, scale)
        params["clip"] = {**clip, "scale": scale}
    # Headless Chromium paints only the tab in front: a background tab's capture never answers.
    await tab.send("Page.bringToFront")
    res = await tab.send("Page.captureScreenshot", params)
    return base64.b64decode(res["data"]), space, (clip if space == "clip" else None)


async def _check_paintable(tab: "Page", clip: dict[str, float], scale: float) -> None:
    """Past MAX_IMAGE_SIDE device pixels a side, captures failed and then Chromium aborted."""
    factor = scale * (await view(tab))["dpr"]
    width, height = clip["width"] * factor, clip["height"] * factor
    if max(width, height) > MAX_IMAGE_SIDE:
        raise BadRequest(f"the screenshot would be {width:.0f} x {height:.0f} device pixels; the limit is "
                         f"{MAX_IMAGE_SIDE} a side: use a smaller scale, a selector, or no fullPage",
                         "screenshot_too_large")


async def _box(tab: "Page", backend_id: int) -> dict[str, float] | None:
    try:
        res = await tab.send("DOM.getBoxModel", {"backendNodeId": backend_id})
    except CDPError:
        return None  # not rendered (display:none, detached)
    quad = res["model"]["border"]
    xs, ys = quad[0::2], quad[1::2]
    return {"x": min(xs), "y": min(ys), "width": max(xs) - min(xs), "height": max(ys) - min(ys)}


async def bounds(tab: "Page", nodes: list[Node]) -> list[dict[str, float] | None]:
    """Boxes in viewport coordinates, asked for all at once."""
    return list(await asyncio.gather(*(_box(tab, n.backend_id) if n.backend_id else _none() for n in nodes)))


async def _none() -> None:
    return None


async def capture(tab: "Page", *, captures_dir: Path, selector: str | None = None, interactive: bool = True,
                  depth: int | None = None, fmt: str = "jpeg", quality: int | None = None, output: str = "file",
                  require_pair: bool = False, scale: float = 1.0, wait: str = "stable", with_bounds: bool = True,
                  beyond_viewport: bool = False) -> dict[str, Any]:
    if wait == "stable":
        await _settle(tab)
    started = time.monotonic()
    document, frame = tab.document, tab.main_frame_id
    v = await view(tab)
    image, space, clip = await take(tab, fmt=fmt, quality=quality, scale=scale, selector=selector,
                                    beyond_viewport=beyond_viewport and not selector)
    snap = await snapshots.capture(tab, interactive=interactive, selector=selector, depth=depth)
    tab.refs.replace(snap)
    nodes = [n.to_json() for n in snap.nodes]
    if with_bounds:
        dx, dy = 0.0, 0.0
        if space == "document":
            dx, dy = v["scrollX"], v["scrollY"]
        elif space == "clip" and clip is not None:
            dx, dy = v["scrollX"] - clip["x"], v["scrollY"] - clip["y"]
        for node, box in zip(nodes, await bounds(tab, snap.nodes)):
            if box is None:
                continue
            node["visible"] = (box["width"] > 0 and box["height"] > 0 and box["x"] < v["w"] and box["y"] < v["h"]
                               and box["x"] + box["width"] > 0 and box["y"] + box["height"] > 0)
            node["boundingBox"] = {"x": round(box["x"] + dx, 1), "y": round(box["y"] + dy, 1),
                                   "width": round(box["width"], 1), "height": round(box["height"], 1)}
    navigated = tab.document != document
    if navigated and require_pair:
        raise Conflict("the page navigated during the capture; capture again", "capture_navigated")
    img: dict[str, Any] = {"format": fmt, "bytes": len(image), "coordinateSpace": space,
                           "devicePixelRatio": v["dpr"], "scale": scale,
                           "viewport": {"w": v["w"], "h": v["h"], "scrollX": v["scrollX"], "scrollY": v["scrollY"]}}
    if clip is not None:
        img["clip"] = clip
    if output == "file":
        img["path"] = str(write_file(captures_dir / stamped_name("cap", "jpg" if fmt == "jpeg" else "png"), image))
    else:
        img["base64"] = base64.b64encode(image).decode()
    return {
        "status": "ok", "tabId": tab.id, "url": snap.url, "title": snap.title,
        "capturedAt": datetime.now(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z"),
        "epoch": {"frameId": frame, "document": document, "domEpoch": f"ep_{tab.id[:8]}_{next(_epochs)}"},
        "pairing": {"navigated": navigated, "captureDurationMs": int((time.monotonic() - started) * 1000)},
        "image": img,
        "snapshot": {"filter": "interactive" if interactive else "all", "nodeCount": len(nodes), "nodes": nodes,
                     **({"truncated": True, "nodeLimit": snap.capped} if snap.capped else {})},
    }


async def _settle(tab: "Page", quiet: float = 0.25, ceiling: float = 0.75) -> None:
    """Until the network has been quiet for ``quiet`` s, at most ``ceiling`` s."""
    net = tab.observer.network
    deadline = time.monotonic() + ceiling
    while time.monotonic() < deadline:
        if not net.inflight and time.monotonic() - net.last_activity >= quiet:
            return
        await asyncio.sleep(0.05)
