"""Actions on a named item: "add the pad thai to my order", "open the garage", "save the gazpacho".

Such a query names an item (a product card, a device tile, a table row) and an action, and
means the item's control for that action: the card's "Add" button, the tile's "Open". The
item's own title (a heading, a link, a tab of the same name) matches the item words better
than the control does, so the plain ranking picks the title. This pass runs after scoring:

* the query opens with an action verb (``ACTIONS``: "order" and "buy" accept an "Add"
  control, "heart" a "Save"/"Like" one ...), possibly followed by a destination ("to my
  order", "to the cart") that is not part of the item's name;
* a control (an interactive element) whose own text holds one of the verb's words, and
  whose item context (the repeated item around it and its nearest heading) holds the item
  words, is the candidate; exactly one must cover them best;
* the current best match is not such a control but an element naming the item.

Then the candidate becomes the best match (just above the former best). Two fallbacks:

* "open order #1004" when the item holds no Open/View control: the item's own link, the one
  whose whole name is among the item words, over its checkbox or Delete button;
* "save item to wishlist" (an action to a destination, no item named): the control that puts
  the page's item there ("Add to wishlist") over the destination's own link ("Wishlist").
"""

from __future__ import annotations

import re
from functools import lru_cache

import numpy as np

from ..text.lexical import stem
from ..weights import PASS_LIFT as LIFT
from .base import PassPage
from .shared import lift_sole_first

__all__ = ["apply", "ACTIONS"]

# query verb -> words a control for it may say
ACTIONS: dict[str, frozenset[str]] = {}
for _verbs, _controls in (
    (("add", "order", "buy", "purchase", "put", "get", "grab"), ("add", "order", "buy", "cart", "basket", "bag")),
    (("open", "view", "show", "see", "watch", "check"), ("open", "view", "show", "see", "watch", "details", "live")),
    (("save", "bookmark", "favourite", "favorite", "heart", "like", "star"),
     ("save", "bookmark", "favourite", "favorite", "like", "wishlist", "liked")),
    (("remove", "delete", "drop", "discard", "trash"), ("remove", "delete", "trash", "discard")),
    (("play", "listen", "start"), ("play", "start", "listen")),
    (("edit", "change", "modify", "rename"), ("edit", "change", "modify", "rename")),
    (("apply",), ("apply",)),
    (("reply", "answer", "respond"), ("reply", "respond", "answer")),
    (("share",), ("share",)),
    (("download",), ("download",)),
    (("book", "reserve"), ("book", "reserve", "select")),
    (("select", "choose", "pick"), ("select", "choose", "pick")),
    (("dim", "brighten"), ("brightness", "dim", "dimmer")),
    (("unlock",), ("unlock",)),
    (("lock",), ("lock",)),
    (("close", "shut"), ("close",)),
    (("follow",), ("follow",)),
):
    for _v in _verbs:
        ACTIONS[_v] = frozenset(_controls) | {_v}

_OPENING = frozenset({"open", "view", "show", "see"})
_STOP = frozenset({"the", "a", "an", "my", "this", "that", "these", "those", "on", "of", "one", "some", "please",
                   "it", "its", "item", "for"})
_DEST_PREP = frozenset({"to", "into", "in", "onto"})
_DEST = frozenset({"order", "cart", "basket", "bag", "list", "library", "favourites", "favorites", "wishlist",
                   "queue", "playlist", "trolley"})
_WORD = re.compile(r"[^\W_]+")
ITEM_COVERAGE = 0.6


def _words(s: str) -> list[str]:
    return _WORD.findall(s.lower())


_PARSED: dict[str, tuple[frozenset[str], list[str]] | None] = {}
PARSE_CACHE_MAX = 4096  # query texts whose parse is kept (process-wide)


def parse(query: str) -> tuple[frozenset[str], list[str]] | None:
    """(control words, item stems) of "<action> [the|on] <item> [to my order]", else None
    (cached per query text: callers only read it)."""
    try:
        return _PARSED[query]
    except KeyError:
        pass
    p = _parse(query)
    if len(_PARSED) >= PARSE_CACHE_MAX:
        _PARSED.clear()
    _PARSED[query] = p
    return p


def _parse(query: str) -> tuple[frozenset[str], list[str]] | None:
    ws = _words(query)
    if len(ws) < 2 or ws[0] not in ACTIONS:
        return None
    rest = ws[1:]
    # "to my order", "into the basket": where it goes, not what it is
    for i in range(len(rest) - 1, 0, -1):
        if rest[i] in _DEST and any(w in _DEST_PREP for w in rest[max(0, i - 3) : i]):
            j = max(k for k in range(max(0, i - 3), i) if rest[k] in _DEST_PREP)
            rest = rest[:j]
            break
    item = [stem(w) for w in rest if w not in _STOP]
    if not item:
        return None
    return ACTIONS[ws[0]], item


TEXT_CACHE_MAX = 8_192  # element texts whose word sets are kept (process-wide; consecutive snapshots repeat them)
_ROW_WORDS: dict[tuple[str, ...], tuple[frozenset[str], frozenset[str], frozenset[str]]] = {}


def _row_words(name: str, label: str, title: str, description: str, item: str,
               heading: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(own-text words, their stems, item-context stems) of an element's texts (cached)."""
    key = (name, label, title, description, item, heading)
    t = _ROW_WORDS.get(key)
    if t is None:
        own = set(_words(" ".join((name, label, title, description))))
        if "+" in (name or "") or "＋" in (name or ""):
            own.add("add")
        # the repeated item around it and its nearest heading: a tile's inner row is an
        # item too ("View live Recorded clips"), its heading names the tile
        t = (frozenset(own), frozenset(stem(w) for w in own),
             frozenset(stem(w) for w in _words(f"{item} {heading}")))
        if len(_ROW_WORDS) >= TEXT_CACHE_MAX:
            _ROW_WORDS.clear()
        _ROW_WORDS[key] = t
    return t


class _Items:
    """Per index: each element's own-text words and item-context stems (lazily, once)."""

    __slots__ = ("own", "ctx", "own_stems")

    def __init__(self, descriptors) -> None:
        rows = [_row_words(d.name, d.label, d.title, d.description, d.item, d.heading) for d in descriptors]
        self.own: list[frozenset[str]] = [r[0] for r in rows]
        self.own_stems: list[frozenset[str]] = [r[1] for r in rows]
        self.ctx: list[frozenset[str]] = [r[2] for r in rows]


def _coverage(item: list[str], words: frozenset[str]) -> float:
    return sum(1 for w in item if w in words) / len(item)


def apply(page: PassPage, query: str, score: np.ndarray) -> None:
    """Lift the item's control above the item's title."""
    descriptors, static = page.descriptors, page.static
    parsed = parse(query)
    if parsed is None:
        dest = parse_destination(query)
        if dest is not None:
            _to_destination(descriptors, static, query, score, dest)
        return
    best = int(np.argmax(score))
    if score[best] <= 0:
        return
    controls, item = parsed
    it = page.per_page("item_words", _Items)
    if controls & it.own[best]:
        return  # the best match already is a control for the action
    if _coverage(item, it.own_stems[best]) < ITEM_COVERAGE and _coverage(item, it.ctx[best]) < ITEM_COVERAGE:
        return  # the best match is not about the named item: leave it
    cands: list[tuple[float, int]] = []
    for i in range(score.size):
        if static[i]:
            continue
        if not (controls & it.own[i]):
            continue
        cov = _coverage(item, it.ctx[i])  # inside the item: its own label naming it is lexical work
        if cov >= ITEM_COVERAGE:
            cands.append((cov, i))
    if not cands:
        if _first_word(query) in _OPENING:
            _open_item_link(descriptors, it, item, score, best)
        return
    lift_sole_first(cands, score, best)  # two items that fit equally: no guess


@lru_cache(maxsize=4096)
def parse_destination(query: str) -> str | None:
    """The destination of "<action> [this|the item] to my <destination>" naming no item
    ("save item to wishlist", "add this to my basket"), else None."""
    ws = _words(query)
    if len(ws) < 3 or ws[0] not in ACTIONS or ws[-1] not in _DEST:
        return None
    between = ws[1:-1]
    if not any(w in _DEST_PREP for w in between) or any(w not in _STOP and w not in _DEST_PREP for w in between):
        return None
    return ws[-1]


def _to_destination(descriptors, static: np.ndarray, query: str, score: np.ndarray, dest: str) -> None:
    """"save item to wishlist": the control that puts the page's item there ("Add to
    wishlist"), not the link to the destination itself ("Wishlist" in the header)."""
    best = int(np.argmax(score))
    if score[best] <= 0:
        return
    dest_st = stem(dest)
    own_best = {stem(w) for w in _words(descriptors[best].name)}
    if own_best - {dest_st}:
        return  # the best match says more than the destination: leave it
    verbs = ACTIONS[_words(query)[0]] | {"add", "move", "save"}
    picks = []
    for i, d in enumerate(descriptors):
        if static[i] or d.role == "link" or i == best:
            continue
        own = set(_words(d.name))
        if own & verbs and dest_st in {stem(w) for w in own} and own & _DEST_PREP:
            picks.append(i)
    if len(picks) == 1:
        score[picks[0]] = min(1.0, float(score[best]) + LIFT)


def _first_word(query: str) -> str:
    ws = _words(query)
    return ws[0] if ws else ""


def _open_item_link(descriptors, it: "_Items", item: list[str], score: np.ndarray, best: int) -> None:
    """"open order #1004" with no Open control in the item: the item's own link, the one whose
    whole name is among the item words (its title or identifier), rather than a checkbox or a
    button that also names the item."""
    if descriptors[best].role == "link":
        return
    words = frozenset(item)
    b = descriptors[best]
    home = (b.item, b.parent)  # the item the best match sits in: the link must sit there too
    if not any(home):
        return
    picks = [i for i, d in enumerate(descriptors)
             if d.role == "link" and (d.item, d.parent) == home and it.own_stems[i] and it.own_stems[i] <= words
             and score[i] > 0]
    if len(picks) == 1:
        score[picks[0]] = min(1.0, float(score[best]) + LIFT)
