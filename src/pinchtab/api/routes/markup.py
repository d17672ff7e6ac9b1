"""Markup and styles: inspecting a page's markup and styles (PinchTab's /html and /styles)."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.markup import HtmlQuery, StylesQuery


ROUTES: tuple[Route, ...] = (
    Route("html", ("GET",), "/html", HtmlQuery, "Outer HTML of the page or of one element", cli=("html",)),
    Route("styles", ("GET",), "/styles", StylesQuery, "Computed styles of an element (or the document's root)",
          cli=("styles",)),
)
