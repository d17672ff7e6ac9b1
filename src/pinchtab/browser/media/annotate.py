"""Refs made visible: ``screenshot?annotate=true`` (numbered ref boxes drawn into the image with
Pillow, the page untouched) and ``/annotate`` (PinchTab's clickable overlay left on the live page).

Both take the tab's interactive snapshot first, so the refs they show are the tab's refs
(``click e5`` acts on the box labelled e5), and each element's border box from Chromium.
"""

from __future__ import annotations

import io
import json
from importlib import resources
from typing import TYPE_CHECKING, Any

from pinchtab.browser.content.capture import bounds
from pinchtab.browser.page import snapshot as snapshots
from pinchtab.errors import BadRequest, NotFound
from pinchtab.models import ref_number

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

MAX_ANNOTATIONS = 200  # PinchTab's cap
OVERLAY_ID = "__pinchtab_annotations_interactive__"
OVERLAY_JS = resources.files("pinchtab.browser.media").joinpath("overlay.js").read_text()
BOX_COLOUR = (232, 23, 138)


async def annotations(tab: "Tab", selector: str | None = None) -> list[dict[str, Any]]:
    """The interactive elements (within ``selector``), by ref, with their viewport boxes."""
    try:
        snap = await snapshots.capture(tab, interactive=True, selector=selector)
    except NotFound as exc:
        raise BadRequest(exc.message, exc.code) from None
    tab.refs.replace(snap)
    items = []
    for node, box in zip(snap.nodes, await bounds(tab, snap.nodes)):
        if not node.ref or box is None or box["width"] <= 0 or box["height"] <= 0:
            continue
        item: dict[str, Any] = {"ref": node.ref, "role": node.role, "name": node.name,
                                "box": {"x": round(box["x"], 1), "y": round(box["y"], 1),
                                        "w": round(box["width"], 1), "h": round(box["height"], 1)}}
        items.append({k: v for k, v in item.items() if v != ""})
    items.sort(key=lambda it: ref_number(it["ref"]) or 0)
    return items[:MAX_ANNOTATIONS]


def project(items: list[dict[str, Any]], dx: float, dy: float, width: float, height: float) -> list[dict[str, Any]]:
    """Boxes moved by (dx, dy) into an image of width x height CSS pixels; those outside it dropped."""
    out = []
    for it in items:
        b = it["box"]
        x, y = b["x"] + dx, b["y"] + dy
        if x + b["w"] <= 0 or y + b["h"] <= 0 or x >= width or y >= height:
            continue
        out.append({**it, "box": {"x": round(max(x, 0.0), 1), "y": round(max(y, 0.0), 1), "w": b["w"], "h": b["h"]}})
    return out


def draw(image: bytes, fmt: str, items: list[dict[str, Any]], k: float) -> bytes:
    """``image`` with each item's box and ref label drawn in (boxes in CSS pixels; ``k`` image
    pixels a CSS pixel: the device pixel ratio times the screenshot's scale)."""
    from PIL import Image, ImageDraw, ImageFont

    picture = Image.open(io.BytesIO(image)).convert("RGB")
    pen = ImageDraw.Draw(picture)
    font = ImageFont.load_default(size=max(10, round(11 * k)))
    for it in items:
        b = it["box"]
        x0, y0, x1, y1 = b["x"] * k, b["y"] * k, (b["x"] + b["w"]) * k, (b["y"] + b["h"]) * k
        pen.rectangle((x0, y0, x1, y1), outline=BOX_COLOUR, width=max(2, round(2 * k)))
        left, top, right, bottom = pen.textbbox((0, 0), it["ref"], font=font)
        w, h = right - left + 6, bottom - top + 4
        ly = y0 - h if y0 - h >= 0 else y0  # above the box when there is room, else inside it
        pen.rectangle((x0, ly, x0 + w, ly + h), fill=BOX_COLOUR)
        pen.text((x0 + 3 - left, ly + 2 - top), it["ref"], fill=(255, 255, 255), font=font)
    out = io.BytesIO()
    picture.save(out, format="PNG" if fmt == "png" else "JPEG", quality=90)
    return out.getvalue()


async def inject_overlay(tab: "Tab", items: list[dict[str, Any]]) -> None:
    await _in_page(tab, f"({OVERLAY_JS})({json.dumps(items)}, {json.dumps(OVERLAY_ID)})")


async def remove_overlay(tab: "Tab") -> None:
    await _in_page(tab, f"document.getElementById({json.dumps(OVERLAY_ID)})?.remove()")


async def _in_page(tab: "Tab", expression: str) -> None:
    res = await tab.send("Runtime.evaluate", {"expression": expression, "returnByValue": True})
    if res.get("exceptionDetails"):
        text = (res["exceptionDetails"].get("exception") or {}).get("description") or "error"
        raise BadRequest(f"the annotation overlay failed in the page: {text.splitlines()[0]}", "annotate_failed")
