"""Request models of the core routes: tabs, navigation, snapshot, find, content, cookies, waits."""

from __future__ import annotations

from typing import Literal
from urllib.parse import urlsplit

from pydantic import Field, field_validator, model_validator

from pinchtab.models.actions import SNAP, SNAP_DIFF
from pinchtab.models.base import (
    MAX_QUERY_CHARS, MAX_SELECTOR_CHARS, MAX_WAIT_MS, ApiModel, Printable, TabScoped,
)


class NavigateRequest(TabScoped):
    url: Printable = Field(..., description="URL to open: http(s)://..., about:blank, or a bare host (gets https://).")
    new_tab: bool = Field(False, description="Open the URL in a new tab (also what happens without tabId).")
    current_tab: bool = Field(False, description="Without tabId: load the URL in the current tab instead of a new "
                                                 "one (beyond PinchTab; the CLI's rule).")
    timeout: int | None = Field(None, ge=1, le=600000, description="Navigation timeout in ms (default 30000).")
    wait_for: Literal["load", "dom", "networkidle", "none"] = Field(
        "load", description="Answer after the load event (load), DOMContentLoaded (dom), network idle, or at once (none)."
    )
    wait_selector: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="Also wait until this CSS selector is present.")
    block_images: bool = Field(False, description="Do not load images in this tab.")
    block_media: bool = Field(False, description="Do not load audio, video and fonts in this tab.")
    snap: bool = Field(False, description=SNAP)
    snap_diff: bool = Field(False, description=SNAP_DIFF)


class TabRequest(TabScoped):
    action: Literal["new", "focus", "close"] = Field(..., description="new: open a tab; focus/close: act on tabId.")
    url: Printable | None = Field(None, description="URL for a new tab (about:blank when omitted).")


class CloseRequest(TabScoped):
    pass


# The outline format (browser/page/outline.py writes it, MCP's views read it): a row's parts are
# joined by OUTLINE_SEP (a name's own is escaped), and a URL on the page's origin reads from its path.
OUTLINE_SEP = "|"


def origin_of(url: str) -> str:
    """``scheme://host[:port]`` of ``url`` ("" when it has none)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme and parts.netloc else ""


def path_on(url: str, origin: str) -> str:
    """``url`` from its path when it is on ``origin`` (the reader knows the origin), else whole."""
    if origin and url.startswith(origin) and url[len(origin):len(origin) + 1] in ("/", "?", "#", ""):
        return url[len(origin):] or "/"
    return url


class SnapshotQuery(TabScoped):
    filter: Literal["interactive", "all"] = Field("all", description="interactive: only elements an agent can act on.")
    interactive: bool = Field(False, description="Same as filter=interactive.")
    format: Literal["json", "text", "compact", "yaml", "outline"] = Field("json", description="Output format; compact: one line per node; outline: the whole page in the fewest characters (rows for repeated items).")
    diff: bool = Field(False, description="Only what was added, changed or removed since this tab's previous snapshot.")
    selector: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="Snapshot only that element's subtree: CSS, XPath (xpath: or //) or "
                                                   "text:, optionally in first:/last:/nth:<n>:, in the frame scope.")
    depth: int | None = Field(None, ge=0, le=1000, description="Maximum tree depth.")
    max_tokens: int | None = Field(None, ge=1, description="Cut the output before it exceeds this many tokens (chars/4).")
    output: Literal["inline", "file"] = Field("inline", description="file: write the snapshot under the state dir "
                                                                    "and answer its path.")

    @model_validator(mode="after")
    def _interactive(self) -> "SnapshotQuery":
        # One meaning downstream: `interactive` (filter=interactive says the same).
        if self.filter == "interactive":
            self.interactive = True
        elif self.interactive:
            self.filter = "interactive"
        return self


class FindRequest(TabScoped):
    query: str = Field(..., min_length=1, max_length=MAX_QUERY_CHARS, description="Natural-language description of the element, e.g. 'login button'.")
    threshold: float = Field(0.3, ge=0.0, le=1.0, description="Minimum similarity score.")
    top_k: int = Field(3, ge=1, le=100, description="Maximum number of matches to return.")
    lexical_weight: float | None = Field(None, ge=0.0, le=1.0, description="Override the lexical score weight (default 0.6).")
    embedding_weight: float | None = Field(None, ge=0.0, le=1.0, description="Override the embedding score weight (default 0.4).")
    explain: bool = Field(False, description="Add lexical_score, embedding_score and composite to each match.")


class TextQuery(TabScoped):
    mode: Literal["readable", "raw"] = Field("readable", description="readable: main content; raw: all of innerText.")
    raw: bool = Field(False, description="Same as mode=raw.")
    max_chars: int | None = Field(None, ge=1, description="Cut the text to this many characters.")
    frame_id: str | None = Field(None, description="Read this frame (childFrameId of an Iframe node) instead of "
                                                   "the page or the tab's frame scope.")

    @model_validator(mode="after")
    def _raw(self) -> "TextQuery":
        if self.mode == "raw":
            self.raw = True
        elif self.raw:
            self.mode = "raw"
        return self


class ScreenshotQuery(TabScoped):
    format: Literal["png", "jpeg"] = Field("png", description="Image format.")
    quality: int | None = Field(None, ge=0, le=100, description="JPEG quality 0-100 (implies jpeg).")
    full_page: bool = Field(False, description="Capture the whole page, not just the viewport.")
    beyond_viewport: bool = Field(False, description="Same as fullPage.")
    selector: str | None = Field(None, description="CSS selector: capture only that element.")
    scale: float = Field(1.0, gt=0, le=4, description="Rescale the image (0.5: half each side).")
    raw: bool = Field(False, description="Answer the image bytes instead of JSON with base64.")
    output: Literal["file"] | None = Field(None, description="file: save under <stateDir>/screenshots and answer its path.")
    path: Printable | None = Field(None, description="File name under <stateDir>/screenshots (with output=file).")
    annotate: bool = Field(False, description="Draw a numbered box on each interactive element (its ref) into the "
                                              "image; the answer's annotations list each ref's role, name and box.")

    @model_validator(mode="after")
    def _jpeg(self) -> "ScreenshotQuery":
        if self.quality is not None:
            self.format = "jpeg"
        self.full_page = self.full_page or self.beyond_viewport
        return self


class PdfRequest(TabScoped):
    landscape: bool = Field(False, description="Landscape orientation.")
    scale: float = Field(1.0, ge=0.1, le=2.0, description="Print scale 0.1-2.0.")
    page_ranges: str | None = Field(None, description="Pages to include, e.g. '1-3,5'.")
    print_background: bool = Field(True, description="Print background graphics.")
    raw: bool = Field(False, description="Answer the PDF bytes instead of JSON with base64.")
    output: Literal["file"] | None = Field(None, description="file: save under <stateDir>/pdfs and answer its path.")
    path: Printable | None = Field(None, description="File name under <stateDir>/pdfs (with output=file).")


class EvaluateRequest(TabScoped):
    expression: str = Field(..., min_length=1, description="JavaScript expression; its JSON value is returned (promises awaited).")


class CookiesQuery(TabScoped):
    url: Printable | None = Field(None, description="Cookies for this URL (default: the tab's URL).")


class Cookie(ApiModel):
    name: str
    value: str
    url: Printable | None = None
    domain: str | None = None
    path: Printable | None = None
    expires: float | None = None
    http_only: bool | None = None
    secure: bool | None = None
    same_site: Literal["Strict", "Lax", "None"] | None = None


class SetCookiesRequest(TabScoped):
    url: Printable | None = Field(None, description="URL the cookies belong to (default: the tab's URL).")
    cookies: list[Cookie] = Field(..., min_length=1, description="Cookies to set.")


class WaitRequest(TabScoped):
    selector: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="CSS selector to wait for.")
    text: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="Text to wait for in the page.")
    timeout: int = Field(10000, ge=0, description="Timeout in ms, default 10000; longer waits are capped at 30000.")
    state: Literal["visible", "hidden"] | None = Field(
        None, description="With selector: wait until it is visible, or hidden/absent (default: present in the DOM).")
    not_text: str | None = Field(None, description="Wait until this text is no longer in the page.")
    url: Printable | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="Wait until the URL matches this glob (** any, * any but /, ? one).")
    load: str | None = Field(None, description="Wait for a load state: ready-state, content-loaded or network-idle.")
    fn: str | None = Field(None, description="Wait until this JavaScript expression is truthy "
                                             "(needs security.allowEvaluate).")
    ms: int | None = Field(None, ge=0, description="Just wait this many ms (at most 30000).")
    idle_for: int = Field(500, ge=0, le=10000, description="With load=network-idle: the quiet period in ms.")

    @field_validator("timeout")
    @classmethod
    def _cap(cls, value: int) -> int:
        return min(value, MAX_WAIT_MS)
