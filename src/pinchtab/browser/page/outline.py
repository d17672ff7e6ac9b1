"""The ``outline`` snapshot format: the whole page for an agent to read in the fewest characters.

The same nodes as the text format, drawn tighter:

- an unnamed wrapper (a list, a landmark, a group, a cell or list item holding controls) gives no
  line of its own: its children take its place (one level in for a list or group after a sibling:
  a list under its disclosure button), one space of indent per level;
- a repeated item (a table row, a list item, a card: a node beside siblings of its role) whose
  content is flat becomes one row, its parts joined by ``|``; text in it is shown without a ref,
  and a run of rows whose parts have the same roles names them once (``# 250 rows, each: ...``);
- a checkbox's state reads ``[x]``, ``[ ]`` or ``[-]``, and a text node drops its role;
- a frame's URL on the page's origin reads from its path (``url="/frame.html"``).

Every ref of an element one can act on, every name, value and state stays; the refs given up are
those of unnamed wrappers, of rows, and of the text inside rows (text: and find still reach it).
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field, replace

from pinchtab.browser.page.nodes import Node
from pinchtab.models import OUTLINE_SEP as SEP, origin_of, path_on

# Nodes whose name is their own text: inside a row they are that text, nothing to act on.
TEXTUAL = frozenset("text cell gridcell columnheader rowheader paragraph StaticText term definition "
                    "caption note blockquote".split())
# Repeated items drawn as rows when their content is flat.
ROWISH = frozenset("row listitem article option treeitem".split())
# Containers whose name Chromium computes from their content: with children they are wrappers.
CONTENT_NAMED = frozenset("cell gridcell columnheader rowheader listitem".split())
# Unnamed containers that still say something: a modal's buttons, a table's rows, a frame's content.
KEPT_UNNAMED = frozenset("dialog alertdialog table grid treegrid Iframe".split())


@dataclass(eq=False)
class _Tree:
    node: Node
    kids: list[_Tree] = field(default_factory=list)


def _tree(nodes: list[Node]) -> list[_Tree]:
    roots: list[_Tree] = []
    stack: list[_Tree] = []
    for node in nodes:
        t = _Tree(node)
        while stack and stack[-1].node.depth >= node.depth:
            stack.pop()
        (stack[-1].kids if stack else roots).append(t)
        stack.append(t)
    return roots


def _stateful(n: Node) -> bool:
    return bool(n.interactive or n.value or n.focused or n.disabled or n.checked is not None or n.pressed is not None
                or n.expanded is not None or n.selected or n.required or n.frame is not None or n.modal)


def _wrapper(t: _Tree) -> bool:
    n = t.node
    if not t.kids or _stateful(n):
        return False
    return n.role in CONTENT_NAMED or (not n.name and n.role not in KEPT_UNNAMED)


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def _box(n: Node) -> str:
    return {True: "[x]", False: "[ ]", "mixed": "[-]"}.get(n.checked, "")  # type: ignore[arg-type]


def _flags(n: Node) -> list[str]:
    flags = [f for f, on in (("focused", n.focused), ("disabled", n.disabled), ("selected", n.selected),
                             ("required", n.required)) if on]
    if n.pressed is not None:
        flags.append("pressed" if n.pressed else "not pressed")
    if n.expanded is not None:
        flags.append("expanded" if n.expanded else "collapsed")
    return [f"[{f}]" for f in flags]


def _tail(n: Node, origin: str) -> list[str]:
    parts = []
    if n.value:
        parts.append(f"val={_q(n.value)}")
    elif n.placeholder:
        parts.append(f"placeholder={_q(n.placeholder)}")
    if n.frame is not None:
        parts.append(f"url={_q(path_on(n.frame.get('url', ''), origin))}")
    return parts + _flags(n)


def _line(n: Node, origin: str) -> str:
    """``e5 checkbox [x] "Remember me"``; a text node is ``e7 "Hello"``."""
    parts = [n.ref] if n.role == "text" else [n.ref, n.role]
    if n.checked is not None:
        parts.append(_box(n))
    if n.name:
        parts.append(_q(n.name))
    return " ".join(parts + _tail(n, origin))


def _plain(n: Node) -> bool:
    return n.role in TEXTUAL and not _stateful(n)


def _part(n: Node, with_role: bool, origin: str) -> str:
    """One part of a row: text as is, a control as ``e19 button View order 1000`` (no quotes:
    ``|`` ends it, and a ``|`` in a name is escaped)."""
    name = n.name.replace("|", "\\|")
    if _plain(n):
        return name
    parts = [n.ref, n.role] if with_role else [n.ref]
    if n.checked is not None:
        parts.append(_box(n))
    if name:
        parts.append(name)
    return " ".join(parts + _tail(n, origin))


def _parts(t: _Tree) -> list[Node] | None:
    """The nodes a row shows (wrappers opened), or None when its content is not flat."""
    out: list[Node] = []
    for k in t.kids:
        if not k.kids:
            out.append(k.node)
        elif _wrapper(k) and all(not g.kids for g in k.kids):
            out += [g.node for g in k.kids]
        elif all(not g.kids and g.node.role == "text" for g in k.kids):  # a button and its glyph
            out += [k.node] + [g.node for g in k.kids]
        else:
            return None
    return out or None


def _pattern(parts: list[Node]) -> tuple[str, ...]:
    return tuple("text" if _plain(n) else n.role for n in parts)


def _row_head(t: _Tree, origin: str) -> str:
    n = t.node
    if not n.name and not _stateful(n):
        return ""
    return _line(n, origin) + ": "


class _Writer:
    def __init__(self, origin: str) -> None:
        self.lines: list[str] = []
        self.origin = origin

    def walk(self, trees: list[_Tree], level: int) -> None:
        roles = Counter(t.node.role for t in trees)
        i = 0
        while i < len(trees):
            t = trees[i]
            rows = self._rows(trees, i, roles)
            if rows:
                self._write_rows(rows, level)
                i += len(rows)
                continue
            if _wrapper(t):
                # a list after its disclosure button stays under it
                under = t.node.role in ("list", "group") and i and _opener(trees[i - 1].node)
                self.walk(t.kids, level + 1 if under else level)
            elif _named_by_text(t):
                # a control with no name of its own and one text inside (a button under a modal):
                # the text is its name, one line
                self.lines.append(" " * level + _line(replace(t.node, name=t.kids[0].node.name), self.origin))
            else:
                self.lines.append(" " * level + _line(t.node, self.origin))
                self.walk(t.kids, level + 1)
            i += 1

    @staticmethod
    def _repeated(n: Node, roles: Counter[str]) -> bool:
        """A row, or one of several siblings of its role (dividers between them or not)."""
        return n.role == "row" or (n.role in ROWISH and roles[n.role] > 1)

    def _rows(self, trees: list[_Tree], i: int, roles: Counter[str]) -> list[tuple[_Tree, list[Node]]]:
        """The run of flat repeated items from ``i`` whose parts have one pattern (at least the one)."""
        run: list[tuple[_Tree, list[Node]]] = []
        pattern = None
        for t in trees[i:]:
            parts = _parts(t) if t.kids and self._repeated(t.node, roles) else None
            if parts is None or (pattern is not None and (_pattern(parts) != pattern or t.node.role != run[0][0].node.role)):
                break
            pattern = _pattern(parts)
            run.append((t, parts))
        return run

    def _write_rows(self, rows: list[tuple[_Tree, list[Node]]], level: int) -> None:
        pad = " " * level
        named_once = len(rows) > 1 and any(r != "text" for r in _pattern(rows[0][1]))
        if named_once:
            plural = f"{rows[0][0].node.role}s"
            self.lines.append(f"{pad}# {len(rows)} {plural}, each: " + SEP.join(_pattern(rows[0][1])))
        for t, parts in rows:
            self.lines.append(pad + _row_head(t, self.origin) + SEP.join(_part(n, not named_once, self.origin) for n in parts))


def _named_by_text(t: _Tree) -> bool:
    only = t.kids[0] if len(t.kids) == 1 else None
    return (t.node.interactive and not t.node.name and only is not None and not only.kids
            and only.node.role == "text" and not _stateful(only.node))


def _opener(n: Node) -> bool:
    """A control a list or group after it belongs to (a disclosure button, a menu's link); a
    heading or text before a list is only its neighbour."""
    return bool(n.interactive or n.expanded is not None)


def lines(nodes: list[Node], url: str = "") -> list[str]:
    """The outline body of ``nodes`` (a snapshot's, in document order with depths; ``url``: the
    page's, whose origin frame URLs are written without)."""
    w = _Writer(origin_of(url))
    w.walk(_tree(nodes), 0)
    return w.lines
