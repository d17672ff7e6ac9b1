"""Request models: the one definition of every parameter of the HTTP API.

The bridge and server routes take these as bodies and queries (they make ``/openapi.json``),
the MCP tools and the CLI read their descriptions and limits from here, so a parameter is
described once.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator
from pydantic.alias_generators import to_camel

MAX_WAIT_MS = 30000
# Caps on strings that drive work (issue 16): a 50 MB find query froze a bridge. 400 beyond them.
MAX_QUERY_CHARS = 1000
MAX_SELECTOR_CHARS = 4096
MAX_TEXT_CHARS = 100_000
MAX_KEY_CHARS = 64
MAX_ACTIONS = 100
MAX_COORD = 100_000  # CSS pixels; a point must also lie inside the viewport (checked on the page)

ActionKind = Literal[
    "click", "dblclick", "type", "fill", "press", "hover", "focus", "select", "scroll", "check", "uncheck",
    # low-level input (pinchtab.browser.input_actions)
    "mouse-move", "mouse-down", "mouse-up", "mouse-wheel", "drag", "keydown", "keyup", "keyboard-type",
    "keyboard-inserttext", "scrollintoview",
]
ACTION_KINDS: tuple[str, ...] = ActionKind.__args__  # type: ignore[attr-defined]


class ApiModel(BaseModel):
    """camelCase on the wire (``tabId``), snake_case in Python (``tab_id``); extra keys ignored."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")

    def wire(self) -> dict[str, Any]:
        """The JSON body a client sends: camelCase keys, unset fields left out."""
        return self.model_dump(by_alias=True, exclude_none=True)


TAB_ID = Field(None, description="Target tab ID (from /tabs). The current tab when omitted.")
MAX_OWNER_CHARS = 200


class Leased(ApiModel):
    """A request that acts on a tab another agent may hold (POST /tabs/{id}/lock): it names who acts.
    The X-Owner header, when sent, wins over this field (as in PinchTab)."""

    owner: str | None = Field(None, max_length=MAX_OWNER_CHARS,
                              description="Who acts (also the X-Owner header); a locked tab answers 423 "
                                          "tab_locked unless this is its lock's owner.")


class TabScoped(ApiModel):
    tab_id: str | None = TAB_ID


class NavigateRequest(TabScoped):
    url: str = Field(..., description="URL to open: http(s)://..., about:blank, or a bare host (gets https://).")
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


class TabRequest(TabScoped):
    action: Literal["new", "focus", "close"] = Field(..., description="new: open a tab; focus/close: act on tabId.")
    url: str | None = Field(None, description="URL for a new tab (about:blank when omitted).")


class CloseRequest(TabScoped):
    pass


class SnapshotQuery(TabScoped):
    filter: Literal["interactive", "all"] = Field("all", description="interactive: only elements an agent can act on.")
    interactive: bool = Field(False, description="Same as filter=interactive.")
    format: Literal["json", "text", "compact", "yaml"] = Field("json", description="Output format; compact uses fewest tokens.")
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


class ActionRequest(TabScoped, Leased):
    kind: ActionKind = Field(..., description="What to do: " + ", ".join(ACTION_KINDS) + ".")
    ref: str | None = Field(None, description="Element ref from the last snapshot or find (e.g. e5).")
    selector: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="CSS selector, instead of ref.")
    x: float | None = Field(None, ge=0, le=MAX_COORD, allow_inf_nan=False,
                            description="Viewport x coordinate (CSS pixels), instead of ref/selector.")
    y: float | None = Field(None, ge=0, le=MAX_COORD, allow_inf_nan=False,
                            description="Viewport y coordinate (CSS pixels), instead of ref/selector.")
    text: str | None = Field(None, max_length=MAX_TEXT_CHARS, description="Text to type (type), or value to fill/select.")
    value: str | None = Field(None, max_length=MAX_TEXT_CHARS, description="Value for fill and select (option value, then visible text).")
    key: str | None = Field(None, max_length=MAX_KEY_CHARS, description="Key for press: Enter, Tab, Escape, ArrowDown, Backspace, a, Control+a, ...")
    pixels: int | None = Field(None, ge=-MAX_COORD, le=MAX_COORD, description="Pixels to scroll (scroll); positive down/right, negative up/left. Default 300.")
    direction: Literal["up", "down", "left", "right"] | None = Field(None, description="Scroll direction (scroll).")
    wait_nav: bool = Field(False, description="After the action, wait for the navigation it starts.")
    button: Literal["left", "right", "middle"] = Field("left", description="Mouse button (mouse-down, mouse-up, click).")
    delta_x: float | None = Field(None, description="Horizontal wheel delta in pixels (mouse-wheel).")
    delta_y: float | None = Field(None, description="Vertical wheel delta in pixels (mouse-wheel; positive scrolls down).")
    drag_x: float | None = Field(None, description="drag: horizontal offset from the source, in pixels.")
    drag_y: float | None = Field(None, description="drag: vertical offset from the source, in pixels.")
    to_ref: str | None = Field(None, description="drag: the target element's ref.")
    to_selector: str | None = Field(None, description="drag: the target's CSS selector.")
    to_x: float | None = Field(None, description="drag: the target's viewport x.")
    to_y: float | None = Field(None, description="drag: the target's viewport y.")
    mode: Literal["dom", "dispatch"] | None = Field(
        None, description="click delivery: omit for a real click (fails on a covered target), dom for "
        "element.click(), dispatch for synthetic pointer and mouse events on the target.")
    dialog_action: Literal["accept", "dismiss"] | None = Field(
        None, description="Answer a JavaScript dialog this action opens (accept or dismiss).")
    dialog_text: str | None = Field(None, max_length=8192, description="Prompt text when dialogAction is accept.")
    auto_switch: bool = Field(
        True, description="A tab this action opens (target=_blank, window.open) becomes the current tab "
                          "(result.switchedToTab), as in PinchTab; false closes it and the current tab stays.")


class ActionsRequest(TabScoped, Leased):
    actions: list[ActionRequest] = Field(..., min_length=1, max_length=MAX_ACTIONS, description="Actions run in order; stops at the first failure.")
    stop_on_error: bool | None = Field(
        None, description="PinchTab's batch: given, every action's outcome is in `results` ({index, success, "
                          "result | error}) with total/successful/failed, and the answer is 200; false runs on past "
                          "a failure, true stops after it. Omitted: the first failure is the answer (its status).")


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
    path: str | None = Field(None, description="File name under <stateDir>/screenshots (with output=file).")

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
    path: str | None = Field(None, description="File name under <stateDir>/pdfs (with output=file).")


class EvaluateRequest(TabScoped):
    expression: str = Field(..., min_length=1, description="JavaScript expression; its JSON value is returned (promises awaited).")


class CookiesQuery(TabScoped):
    url: str | None = Field(None, description="Cookies for this URL (default: the tab's URL).")


class Cookie(ApiModel):
    name: str
    value: str
    url: str | None = None
    domain: str | None = None
    path: str | None = None
    expires: float | None = None
    http_only: bool | None = None
    secure: bool | None = None
    same_site: Literal["Strict", "Lax", "None"] | None = None


class SetCookiesRequest(TabScoped):
    url: str | None = Field(None, description="URL the cookies belong to (default: the tab's URL).")
    cookies: list[Cookie] = Field(..., min_length=1, description="Cookies to set.")


class WaitRequest(TabScoped):
    selector: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="CSS selector to wait for.")
    text: str | None = Field(None, max_length=MAX_SELECTOR_CHARS, description="Text to wait for in the page.")
    timeout: int = Field(10000, ge=0, description="Timeout in ms, default 10000; longer waits are capped at 30000.")
    state: Literal["visible", "hidden"] | None = Field(
        None, description="With selector: wait until it is visible, or hidden/absent (default: present in the DOM).")
    not_text: str | None = Field(None, description="Wait until this text is no longer in the page.")
    url: str | None = Field(None, description="Wait until the URL matches this glob (** any, * any but /, ? one).")
    load: str | None = Field(None, description="Wait for a load state: ready-state, content-loaded or network-idle.")
    fn: str | None = Field(None, description="Wait until this JavaScript expression is truthy "
                                             "(needs security.allowEvaluate).")
    ms: int | None = Field(None, ge=0, description="Just wait this many ms (at most 30000).")
    idle_for: int = Field(500, ge=0, le=10000, description="With load=network-idle: the quiet period in ms.")

    @field_validator("timeout")
    @classmethod
    def _cap(cls, value: int) -> int:
        return min(value, MAX_WAIT_MS)
