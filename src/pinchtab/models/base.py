"""The base of every request model: camelCase on the wire, tab scoping, leases, and the caps on
strings and numbers that drive work."""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field
from pydantic_core import PydanticCustomError
from pydantic.alias_generators import to_camel

MAX_WAIT_MS = 30000
# Caps on strings that drive work (issue 16): a 50 MB find query froze a bridge. 400 beyond them.
MAX_QUERY_CHARS = 1000
MAX_SELECTOR_CHARS = 4096
MAX_TEXT_CHARS = 100_000
MAX_KEY_CHARS = 64
MAX_ACTIONS = 100
# The largest image side Chromium paints, in device pixels: beyond it captures failed, then Chromium aborted.
MAX_IMAGE_SIDE = 16_384
MAX_COORD = 100_000  # CSS pixels; a point must also lie inside the viewport (checked on the page)

class ApiModel(BaseModel):
    """camelCase on the wire (``tabId``), snake_case in Python (``tab_id``); extra keys ignored.

    Each model's validator is built on its first use, not at import (``defer_build``): a process
    uses few of the ~90 models (a CLI command reads only their fields for its options, a server
    validates its own routes' bodies), and building them all at import was ~15 % of the CPU of
    starting ``pinchtab snap`` (bench/startup.py)."""

    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore", defer_build=True)

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


# PinchTab's `browser` parameter names the engine a request runs on. This server drives Chromium;
# PinchTab's other engines are known names that answer "not installed here", anything else "unknown".
CHROMIUM_NAMES = frozenset({"chrome", "chromium"})
OTHER_ENGINES = ("cloak", "ghost-chrome")


def browser_name(value: str | None) -> str | None:
    name = (value or "").strip().lower()
    if not name or name in CHROMIUM_NAMES:
        return None
    if name in OTHER_ENGINES:
        raise PydanticCustomError(
            "browser_not_installed",
            "browser '{name}' is not installed here: this server drives Chromium only; pass browser=chrome or "
            "leave browser out", {"name": name})
    raise PydanticCustomError(
        "unknown_browser", "unknown browser '{name}' (known: chrome; {others} are not installed here)",
        {"name": value, "others": ", ".join(OTHER_ENGINES)})


class TabScoped(ApiModel):
    tab_id: str | None = TAB_ID
    browser: Annotated[str | None, AfterValidator(browser_name)] = Field(
        None, max_length=64, description="The browser engine (PinchTab's parameter): chrome (the default; also "
                                         "chromium). Another engine answers 400 unknown_browser or browser_not_installed.")


def printable(value: str) -> str:
    # A NUL or another control character in a URL or a file name reached the file system or Chromium
    # and came back as a 500; it is the caller's mistake.
    bad = next((c for c in value if ord(c) < 0x20 or ord(c) == 0x7F), None)
    if bad is not None:
        raise ValueError(f"must not contain control characters (found {bad!r})")
    return value


# A URL, URL pattern or file name: no control characters.
Printable = Annotated[str, AfterValidator(printable)]

