"""What each MCP session last saw of a page, so that ``snap`` answers with what changed since.

An agent keeps every answer in its context: after it has seen a page's outline, the page after
its next step is that outline plus a few lines. So ``snap`` answers the whole outline the first
time it shows a page, and after that only the lines that differ from the view the session last
got (from ``snap`` or the default ``pinchtab_snapshot``) of the same tab and URL:

    # diff
    +e16 status "Draft deleted"
    # focus: e57
    -e14 e15

A ``+`` line is the outline's line as it reads now (a table row whose box was ticked is its row
again), indented from the least indented line of its run; a run of rows' header that only counts
more or fewer rows than the last view's is not repeated. ``-`` names the refs no line shows any
more, and a line without refs that went (a row of text) is given as it was. A line whose only
change is focus is not repeated: ``# focus:`` names the focused ref, unless focus went where the
step acted (the element, or the frame or row holding it). When that would not be shorter than
the outline, or no ref of the last view is left (a new document), the answer is the outline, its
header without the node count (and without the URL when it is the one of the last view, or from
its path on the last view's origin).
The MCP server is per session, so this is a presentation choice of MCP: HTTP's snap, snapDiff
and diff stay PinchTab's.
"""

from __future__ import annotations

import difflib
import re
import weakref
from collections.abc import Collection
from dataclasses import dataclass

from pinchtab.client import AsyncClient
from pinchtab.models import OUTLINE_SEP as SEP, origin_of, path_on

DIFF_HEADER = "# diff"
NO_CHANGE = "# no change since the last view"
# The refs of an outline line: the line's own, and each of a row's parts (`a|e29 Open ...`).
_REFS = re.compile(rf"(?:^\s*|(?<!\\){re.escape(SEP)})(e\d+)(?= |$)")
# A run of rows' header: ``# 30 listitems, each: text|button`` (the count is group 1).
_ROWS_HEAD = re.compile(r"(\s*# )\d+( \w+, each: .*)")


@dataclass(frozen=True)
class View:
    tab: str | None  # the tabId the agent named (None: the current tab)
    url: str
    lines: tuple[str, ...]  # the outline's body


_SEEN: "weakref.WeakKeyDictionary[AsyncClient, View]" = weakref.WeakKeyDictionary()


def _split(outline: str) -> tuple[str, list[str]]:
    """The URL in the outline's header (``# title | url | N nodes``) and the body's lines."""
    head, _, body = outline.partition("\n")
    parts = head.rsplit(" | ", 2)
    return (parts[1] if len(parts) == 3 else head), [line for line in body.split("\n") if line]


def remember(c: AsyncClient, tab: str | None, outline: str) -> None:
    """The session now has seen ``outline`` (a whole-page outline with its header) of ``tab``."""
    url, body = _split(outline)
    _SEEN[c] = View(tab, url, tuple(body))


def forget(c: AsyncClient) -> None:
    _SEEN.pop(c, None)


_FOCUSED = " [focused]"


def _focus(lines: list[str] | tuple[str, ...]) -> str | None:
    """The ref of the focused element (the last ref before its ``[focused]``)."""
    for line in lines:
        at = line.find(_FOCUSED)
        if at >= 0:
            refs = _REFS.findall(line[:at])
            return refs[-1] if refs else None
    return None


def _depth(line: str) -> int:
    return len(line) - len(line.lstrip(" "))


def _indented(run: list[str]) -> list[str]:
    """A run of new lines as ``+`` lines, indented from its least indented line."""
    least = min(_depth(line) for line in run)
    return [f"+{line[least:]}" for line in run]


def _holding(lines: list[str], refs: Collection[str]) -> set[str]:
    """``refs``, the refs on their lines (a card's row) and those of the lines holding them (by
    indent: a frame, a dialog)."""
    out = set(refs)
    for i, line in enumerate(lines):
        on_line = set(_REFS.findall(line))
        if not on_line & set(refs):
            continue
        out |= on_line
        depth = _depth(line)
        for above in reversed(lines[:i]):
            if _depth(above) < depth:
                out.update(_REFS.findall(above))
                depth = _depth(above)
    return out


def diff_lines(before: list[str] | tuple[str, ...], after: list[str], acted: Collection[str] = ()) -> list[str]:
    """``after`` against ``before``: its new lines with ``+``, then what went (``-``). A line whose
    only change is focus is not repeated: ``# focus: e57`` says where focus went, when that is not
    where the step acted (``acted``: the refs it named)."""
    added: list[str] = []
    went: list[str] = []
    heads = {_ROWS_HEAD.sub(r"\1N\2", line) for line in before if _ROWS_HEAD.fullmatch(line)}
    unfocused = [line.replace(_FOCUSED, "") for line in after]
    ops = difflib.SequenceMatcher(None, [line.replace(_FOCUSED, "") for line in before], unfocused,
                                  autojunk=False).get_opcodes()
    for op, i1, i2, j1, j2 in ops:
        if op in ("insert", "replace"):
            run = [line for line in after[j1:j2]
                   if not (_ROWS_HEAD.fullmatch(line) and _ROWS_HEAD.sub(r"\1N\2", line) in heads)]
            added += _indented(run) if run else []
        if op in ("delete", "replace"):
            went += [line for line in before[i1:i2] if not _ROWS_HEAD.fullmatch(line)]
    still = {ref for line in after for ref in _REFS.findall(line)}
    gone: list[str] = []
    text_gone: list[str] = []
    for line in went:
        refs = _REFS.findall(line)
        if refs:
            gone += [r for r in refs if r not in still and r not in gone]
        elif not line.lstrip().startswith("#"):
            text_gone.append(f"-{line.strip()}")
    focus = _focus(after)
    if (focus != _focus(before) and not any(_FOCUSED in line for line in added)
            and not (focus and focus in _holding(list(before), acted) | _holding(after, acted))):
        added.append(f"# focus: {focus or 'none'}")
    return added + ([f"-{' '.join(gone)}"] if gone else []) + text_gone


def _trim(outline: str) -> str:
    """The outline without its header's node count (``# title | url``)."""
    head, nl, body = outline.partition("\n")
    parts = head.rsplit(" | ", 1)
    return (parts[0] if len(parts) == 2 and parts[1].endswith(" nodes") else head) + nl + body


def without_url(text: str, url: str) -> str:
    """``text`` (an outline or a diff) without ``url`` in its header (whole, or from its path): the
    URL the agent asked for. A JSON line before the page (a new tab's id) stays."""
    if text.startswith("{"):
        first, nl, rest = text.partition("\n")
        return first + nl + without_url(rest, url)
    head, nl, body = text.partition("\n")
    for said in (url, path_on(url, origin_of(url))):
        if head.startswith("# ") and head.endswith(f" | {said}"):
            return head[: -len(said) - 3] + nl + body
    return text


def _from_path(text: str, url: str, base: str) -> str:
    """``text`` with ``url`` in its header read from its path when it is on ``base``'s origin."""
    head, nl, body = text.partition("\n")
    short = path_on(url, origin_of(base))
    return head[: -len(url)] + short + nl + body if short != url and head.endswith(f" | {url}") else text


def since_seen(c: AsyncClient, tab: str | None, outline: str, acted: Collection[str] = ()) -> str:
    """What to answer for ``outline`` (the page now): what changed since the session's last view of
    the same tab and URL when that is shorter, else the outline; either way it is now the view.
    ``acted``: the refs the step named (focus going there is not news)."""
    seen = _SEEN.get(c)
    remember(c, tab, outline)
    url, body = _split(outline)
    if seen is None or seen.tab != tab:
        return _trim(outline)
    if seen.url != url:
        return _from_path(_trim(outline), url, seen.url)
    whole = without_url(_trim(outline), url)  # the URL it has seen
    if not {r for line in body for r in _REFS.findall(line)} & {r for line in seen.lines for r in _REFS.findall(line)}:
        return whole  # a new document: nothing to diff against
    changes = diff_lines(seen.lines, body, acted)
    text = "\n".join([DIFF_HEADER, *changes] if changes else [NO_CHANGE]) + "\n"
    return text if len(text) < len(whole) else whole
