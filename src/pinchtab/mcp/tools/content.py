"""Reading the page: text, screenshot, PDF, JavaScript, cookies."""

from __future__ import annotations

import base64
import json
from typing import Any

from pinchtab import models
from pinchtab.client import AsyncClient
from pinchtab.mcp.tools.common import TAB, as_int
from pinchtab.mcp.tools.registry import ToolOutput, define, field, own

tool = define("content")


async def _screenshot(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    from mcp_types import ImageContent  # loaded by the server that calls this; not by importing the tools

    quality = as_int(a["quality"])
    fmt = "png" if quality is None else "jpeg"
    if a["annotate"]:
        shot = await c.call("screenshot", a["tabId"], parse=lambda r: r.json(), format=fmt, quality=quality,
                            annotate=True, raw=False)
        image = ImageContent(type="image", data=shot["base64"], mime_type=f"image/{shot['format']}")
        return image, {"annotations": shot["annotations"]}
    data = await c.screenshot(a["tabId"], format=fmt, quality=quality)
    return ImageContent(type="image", data=base64.b64encode(data).decode(), mime_type=f"image/{fmt}")


async def _get_text(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return (await c.text(a["tabId"], raw=bool(a["raw"])))["text"]


async def _eval(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    return json.dumps(await c.evaluate(a["expression"], a["tabId"]), ensure_ascii=False)


async def _pdf(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    data = await c.pdf(a["tabId"], landscape=bool(a["landscape"]), scale=a["scale"], page_ranges=a["pageRanges"])
    return base64.b64encode(data).decode()


def _commas(value: str | None) -> list[str] | None:
    return [v.strip() for v in value.split(",") if v.strip()] if value else None


async def _scrape(c: AsyncClient, a: dict[str, Any]) -> ToolOutput:
    body = {"url": a["url"], "preview": a["preview"], "only": _commas(a["only"]), "maxPages": as_int(a["maxPages"]),
            "maxPerPattern": as_int(a["maxPerPattern"]), "includePatterns": _commas(a["include"]),
            "excludePatterns": _commas(a["exclude"]), "concurrency": as_int(a["concurrency"]),
            "enrichAll": a["enrichAll"], "noBrowser": a["noBrowser"], "timeoutSeconds": a["timeoutSeconds"],
            "browser": a["browser"]}
    return await c.call("scrape", None, wait_ms=SCRAPE_WAIT_MS, **{k: v for k, v in body.items() if v is not None})


SCRAPE_WAIT_MS = 900_000  # a multi-page crawl takes minutes (the server bounds a run at 15)
_S = models.ScrapeRequest

TOOLS = (
    tool(
        name="pinchtab_screenshot",
        description="Capture a screenshot of the current page (viewport) as an image. PNG by default; JPEG when quality is given.",
        args=(TAB, field(models.ScreenshotQuery, "quality", type=float, description="JPEG quality 0-100 (default: PNG)."),
              field(models.ScreenshotQuery, "annotate", description="Draw each interactive element's ref on the image; "
                    "each one's ref, role, name and box follow as JSON.")),
        run=_screenshot,
        read_only=True,
        core=True,
    ),
    tool(
        name="pinchtab_get_text",
        description="Extract the readable text content of the page (main content), suitable for summarisation and Q&A.",
        args=(TAB, field(models.TextQuery, "raw",
                         description="Return all of the page's raw innerText instead of the readable main content.")),
        run=_get_text,
        read_only=True,
        core=True,
    ),
    tool(
        name="pinchtab_eval",
        description="Execute a JavaScript expression in the page and return its JSON-serialised result (promises are "
        "awaited). Requires security.allowEvaluate: true in the PinchTab config; answers HTTP 403 otherwise.",
        args=(field(models.EvaluateRequest, "expression", description="JavaScript expression to evaluate, e.g. document.title."),
              TAB),
        run=_eval,
    ),
    tool(
        name="pinchtab_pdf",
        description="Export the current page as a PDF document; returns the PDF bytes base64-encoded.",
        args=(
            TAB,
            field(models.PdfRequest, "landscape", description="Landscape orientation (default portrait)."),
            field(models.PdfRequest, "scale", description="Print scale 0.1-2.0 (default 1.0)."),
            field(models.PdfRequest, "page_ranges"),
        ),
        run=_pdf,
        read_only=True,
    ),
    tool(
        name="pinchtab_cookies",
        description="Get the cookies of the current page: an array of {name, value, domain, path, expires, httpOnly, "
        "secure, sameSite}. Requires security.allowCookies in the PinchTab config.",
        args=(TAB,),
        run=lambda c, a: c.cookies(a["tabId"]),
        read_only=True,
    ),
    tool(
        name="pinchtab_scrape",
        description="Crawl a whole site to a page tree of markdown via /scrape: HTTP first, only thin, blocked or "
        "failed pages are rendered in the browser; each page's source says which. preview=true gives a cheap outline "
        "(charCount and snippet per page, no bodies, no browser); only (comma-separated URLs) then expands chosen "
        "pages at full fidelity. Full reports can be large: preview first, then expand.",
        args=(field(_S, "url"), field(_S, "preview"),
              own("only", str, "Comma-separated URLs to scrape at full fidelity instead of discovering the site."),
              field(_S, "max_pages", type=float), field(_S, "max_per_pattern", type=float),
              own("include", str, "Comma-separated regular expressions: only URLs matching one."),
              own("exclude", str, "Comma-separated regular expressions: skip URLs matching one."),
              field(_S, "concurrency", type=float), field(_S, "enrich_all"), field(_S, "no_browser"),
              field(_S, "timeout_seconds"), field(_S, "browser")),
        run=_scrape,
        read_only=True,
    ),
)
