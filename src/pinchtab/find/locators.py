"""Structured locators: the exact half of PinchTab's selector grammar, matched against a page's
elements (the same element dicts ``find`` takes).

    role:<role> [name]   label:<text>   placeholder:<text>   alt:<text>   title:<text>
    testid:<id>          text:<text>    first:<locator>   last:<locator>   nth:<n>:<locator>

A value matches a field exactly (score 1.0) or is contained in it (0.78), case and runs of
spaces aside. Without a wrapper the best scores come first (document order between equals); with
one, matches are taken in document order and the wrapper picks one (``nth`` counts from 0).
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pinchtab.find.weights import STRATEGY, confidence_for

FIELDS = ("role", "label", "placeholder", "alt", "title", "testid", "text")
EXACT, CONTAINED = 1.0, 0.78
# roles whose accessible name is what their <label> (or aria-label) says
LABELLED = frozenset("textbox searchbox combobox listbox checkbox radio switch slider spinbutton".split())
IMAGES = frozenset(("img", "image"))


@dataclass(frozen=True)
class Locator:
    field: str           # one of FIELDS
    value: str           # the text to match ("" for a bare role:button)
    role: str = ""       # for role:
    wrapper: str = ""    # "", "first", "last" or "nth"
    nth: int = 0


def _cut(s: str, prefix: str) -> str | None:
    return s[len(prefix):] if s[:len(prefix)].lower() == prefix else None


def _clean(value: str) -> str:
    value = value.strip().strip(",.;").strip()
    if len(value) >= 2 and (value[0], value[-1]) in (('"', '"'), ("'", "'"), ("`", "`"), ("[", "]")):
        value = value[1:-1].strip()
    return value


def parse_locator(query: str, *, with_text: bool = True) -> Locator | None:
    """The locator ``query`` spells, or None when it is not one (a natural-language query, CSS...)."""
    q = query.strip()
    for wrapper in ("first:", "last:"):
        rest = _cut(q, wrapper)
        if rest is not None:
            base = _parse_base(rest, with_text)
            return None if base is None else Locator(base.field, base.value, base.role, wrapper[:-1])
    rest = _cut(q, "nth:")
    if rest is not None:
        index, _, raw = rest.partition(":")
        if not index.strip().isdigit() or not raw.strip():
            return None
        base = _parse_base(raw, with_text)
        return None if base is None else Locator(base.field, base.value, base.role, "nth", int(index))
    return _parse_base(q, with_text)


def _parse_base(raw: str, with_text: bool) -> Locator | None:
    q = raw.strip()
    rest = _cut(q, "role:")
    if rest is not None:
        parts = rest.strip().split(None, 1)
        if not parts:
            return None
        role = parts[0].strip(",.;").lower()
        return Locator("role", _clean(parts[1]) if len(parts) > 1 else "", role) if role else None
    for name in FIELDS[1:] if with_text else FIELDS[1:-1]:
        rest = _cut(q, name + ":")
        if rest is not None:
            value = _clean(rest)
            return Locator(name, value) if value else None
    return None


def _norm(text: Any) -> str:
    return " ".join(str(text or "").split()).lower()


def _values(loc: Locator, el: Mapping[str, Any]) -> list[Any]:
    role = _norm(el.get("role"))
    name = el.get("name")
    if loc.field == "role":
        return [name, el.get("placeholder"), el.get("value"), el.get("description")]
    if loc.field == "text":
        return [name]
    if loc.field == "label":
        return [name] if role in LABELLED else []
    if loc.field == "placeholder":
        return [el.get("placeholder")]
    if loc.field == "alt":
        return [name] if role in IMAGES else []
    if loc.field == "title":
        return [el.get("description")] + ([name] if el.get("titled") else [])
    return [el.get("testid")]


def score(loc: Locator, el: Mapping[str, Any]) -> float:
    """How well ``el`` matches (0 when it does not)."""
    if loc.field == "role" and _norm(el.get("role")) != loc.role:
        return 0.0
    if loc.field == "role" and not loc.value:
        return EXACT
    want = _norm(loc.value)
    best = 0.0
    for value in _values(loc, el):
        have = _norm(value)
        if have == want:
            return EXACT
        if have and want in have:
            best = CONTAINED
    return best


def match(loc: Locator, elements: Sequence[Mapping[str, Any]], *, threshold: float = 0.3,
          top_k: int = 3) -> dict[str, Any]:
    """A ``find`` answer (same fields) for a structured locator."""
    t0 = time.perf_counter()
    found = [(s, i) for i, el in enumerate(elements) if (s := score(loc, el)) > 0 and s >= threshold]
    if loc.wrapper:
        index = {"first": 0, "last": len(found) - 1}.get(loc.wrapper, loc.nth)
        found = [found[index]] if 0 <= index < len(found) else []
    else:
        found = sorted(found, key=lambda p: (-p[0], p[1]))[:max(top_k, 1)]
    matches = [{"ref": elements[i].get("ref", ""), "score": s, "role": elements[i].get("role", ""),
                "name": elements[i].get("name", "")} for s, i in found]
    best = matches[0] if matches else None
    return {
        "best_ref": best["ref"] if best else "",
        "confidence": confidence_for(best["score"]) if best else "low",
        "score": best["score"] if best else 0.0,
        "matches": matches,
        "strategy": STRATEGY + ":structured",
        "threshold": threshold,
        "latency_ms": round((time.perf_counter() - t0) * 1000.0, 3),
        "element_count": len(elements),
    }
