"""The ref grammar, parsed here only: a ref is ``e`` and a number (``e5``), optionally written
``ref:e5`` where a selector is expected. Snapshots and find hand refs out; every surface that takes
one (the browser's selectors, MCP, the CLI) reads it with these functions."""

from __future__ import annotations

import re

REF_PATTERN = re.compile(r"e(\d+)")
REF_PREFIX = "ref:"


def ref_number(text: str) -> int | None:
    """The number of ref ``text`` (``e5`` -> 5), or None when ``text`` is not a ref."""
    m = REF_PATTERN.fullmatch(text)
    return int(m.group(1)) if m else None


def is_ref(text: str) -> bool:
    return REF_PATTERN.fullmatch(text) is not None


def as_ref(text: str) -> str | None:
    """``text`` as a ref when it is one, bare or as ``ref:e5`` (surrounding blanks ignored), else None."""
    text = text.strip()
    if text.startswith(REF_PREFIX):
        text = text[len(REF_PREFIX):].strip()
    return text if is_ref(text) else None
