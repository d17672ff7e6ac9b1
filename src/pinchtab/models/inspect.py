"""Inspecting a tab: /capture (screenshot + snapshot from one moment), timing and Web Vitals,
Chromium's per-tab counters, and the cheap readiness probe ``/tabs/{id}/state``."""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from pinchtab.models.base import ApiModel, TabScoped


class CaptureQuery(TabScoped):
    selector: str | None = Field(None, description="CSS selector: clip the image to it and snapshot only its subtree.")
    filter: Literal["interactive", "all"] = Field("interactive", description="Snapshot nodes: interactive or all.")
    depth: int | None = Field(None, ge=-1, le=1000, description="Snapshot max depth (-1 or omitted: full).")
    format: Literal["jpeg", "png"] = Field("jpeg", description="Image format.")
    quality: int | None = Field(None, ge=1, le=100, description="JPEG quality 1-100 (default 80).")
    output: Literal["file", "inline", "raw"] = Field(
        "file", description="file: write the image under the state dir (image.path); inline/raw: image.base64.")
    require_pair: bool = Field(False, description="Answer 409 when the page navigated during the capture.")
    no_animations: bool = Field(False, description="Accepted for PinchTab clients (no effect).")
    scale: float = Field(1.0, gt=0, le=4, description="Rescale the image (0.5: half each side).")
    wait: Literal["stable", "load", "none"] = Field(
        "stable", description="stable: wait for the network to be quiet 250 ms (at most 750 ms); load, none: do not wait.")
    with_bounds: bool = Field(True, description="Give each node its boundingBox (in the image's coordinates) and visible.")
    beyond_viewport: bool = Field(False, description="Image of the whole document (coordinateSpace document).")


class CountQuery(TabScoped):
    selector: str = Field(..., min_length=1, description="Ref (e5), CSS, xpath:/ //, text:, with first:, last: or "
                                                         "nth:<n>: around it.")


class ElementQuery(TabScoped):
    ref: str = Field(..., min_length=1, description="The element: a ref (e5) or a selector (CSS, xpath:, text:, ...).")


class AttrQuery(ElementQuery):
    name: str = Field(..., min_length=1, description="Attribute name.")


class TabRef(ApiModel):
    tab_id: str = Field(..., description="Tab ID (from GET /tabs).")
