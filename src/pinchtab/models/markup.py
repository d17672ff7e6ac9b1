"""Markup and styles: inspecting a page's markup and styles (PinchTab's /html and /styles)."""

from __future__ import annotations

from pydantic import Field

from pinchtab.models.base import TabScoped

_TARGET = "An element: a ref or a selector (CSS, XPath, text:, role:..., in the tab's frame scope). The whole document when omitted."


class HtmlQuery(TabScoped):
    selector: str | None = Field(None, description=_TARGET)
    ref: str | None = Field(None, description="An element by ref (same as selector=eN).")
    max_chars: int | None = Field(None, ge=1, description="Cut the HTML to this many characters.")


class StylesQuery(TabScoped):
    selector: str | None = Field(None, description=_TARGET)
    ref: str | None = Field(None, description="An element by ref (same as selector=eN).")
    prop: str | None = Field(None, description="Only this CSS property (e.g. display).")
