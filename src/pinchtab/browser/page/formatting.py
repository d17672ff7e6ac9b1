"""Snapshot output formats (json, text, compact, yaml, outline: outline.py), diffs, and the maxTokens budget.

Tokens are estimated as characters / 4. Pure functions: no browser needed to test them.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from pinchtab.browser.page import outline
from pinchtab.browser.page.nodes import Node, Snapshot

CHARS_PER_TOKEN = 4
FORMATS = ("json", "text", "compact", "yaml", "outline")


@dataclass
class Diff:
    added: list[Node] = field(default_factory=list)
    changed: list[Node] = field(default_factory=list)
    removed: list[Node] = field(default_factory=list)


def diff_snapshots(previous: Snapshot | None, current: Snapshot) -> Diff:
    """Nodes are the same node when their refs (element identities) are equal."""
    if previous is None:
        return Diff(added=list(current.nodes))
    before = {n.ref: n for n in previous.nodes}
    seen: set[str] = set()
    out = Diff()
    for node in current.nodes:
        old = before.get(node.ref)
        if old is None:
            out.added.append(node)
            continue
        seen.add(node.ref)
        if old.state() != node.state():
            out.changed.append(node)
    out.removed = [n for ref, n in before.items() if ref not in seen]
    return out


def _flags(node: Node) -> list[str]:
    flags = []
    if node.focused:
        flags.append("focused")
    if node.disabled:
        flags.append("disabled")
    if node.checked is not None:
        flags.append("checked=mixed" if node.checked == "mixed" else ("checked" if node.checked else "unchecked"))
    if node.pressed is not None:
        flags.append("pressed" if node.pressed else "not pressed")
    if node.expanded is not None:
        flags.append("expanded" if node.expanded else "collapsed")
    if node.selected:
        flags.append("selected")
    if node.required:
        flags.append("required")
    return flags


def _q(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)


def text_line(node: Node, *, indent: bool = True, sep: str = " ") -> str:
    """``e2 textbox "Email" val="a@b.c" [focused]`` (indented two spaces per depth)."""
    parts = [f"{node.ref}{sep}{node.role}"]
    if node.name:
        parts.append(_q(node.name))
    if node.value is not None and node.value != "":
        parts.append(f"val={_q(node.value)}")
    if node.placeholder and not node.value:
        parts.append(f"placeholder={_q(node.placeholder)}")
    if node.frame:  # an iframe owner: its frame's URL (its content follows, one level deeper)
        parts.append(f"url={_q(node.frame.get('url', ''))}")
    parts.extend(f"[{f}]" for f in _flags(node))
    line = " ".join(parts)
    return ("  " * node.depth + line) if indent else line


# A plain YAML scalar may not hold ": " or " #", end with ":", or hold control characters.
_YAML_UNSAFE = re.compile(r":\s|:$|\s#|[\x00-\x1f\x7f]")


def _yaml_key(text: str) -> str:
    return "'" + text.replace("'", "''") + "'" if _YAML_UNSAFE.search(text) else text


def yaml_line(node: Node, *, has_children: bool = False, indent: bool = True) -> str:
    """Playwright-style aria YAML: ``- button "Submit" [ref=e1] [disabled]``.

    A node with children ends with ``:`` (its children are the nested list), a value follows
    ``: ``, and an entry YAML would misread is single-quoted, so the document stays valid YAML."""
    parts = [node.role]
    if node.name:
        parts.append(_q(node.name))
    parts.append(f"[ref={node.ref}]")
    parts.extend(f"[{f}]" for f in _flags(node))
    if node.value and has_children:
        parts.append(f"val={_q(node.value)}")
    line = "- " + _yaml_key(" ".join(parts))
    if has_children:
        line += ":"
    elif node.value:
        line += f": {_q(node.value)}"
    return ("  " * node.depth + line) if indent else line


def _header(snap: Snapshot, fmt: str, count: int) -> list[str]:
    if fmt == "text":
        lines = [f"# {snap.title}", f"# {snap.url}", f"# {count} nodes"]
    elif fmt in ("compact", "outline"):
        lines = [f"# {snap.title} | {snap.url} | {count} nodes"]
    else:  # yaml: comments keep the document valid YAML
        lines = [f"# {snap.title}", f"# {snap.url}"]
    if snap.capped:
        lines.append(f"# truncated: the page has more than {snap.capped} nodes (browser.maxSnapshotNodes); "
                     "these are the first ones - use a selector for the part you need")
    return lines


def _line(node: Node, fmt: str) -> str:
    if fmt in ("compact", "outline"):  # a diff's nodes are separate: the outline's rows do not apply
        return text_line(node, indent=False, sep=":")
    return text_line(node)


def _lines(nodes: list[Node], fmt: str, url: str = "") -> list[str]:
    if fmt == "outline":
        return outline.lines(nodes, url)
    if fmt != "yaml":
        return [_line(n, fmt) for n in nodes]
    return [yaml_line(n, has_children=i + 1 < len(nodes) and nodes[i + 1].depth > n.depth)
            for i, n in enumerate(nodes)]


def _size(value: Any) -> int:
    """Characters of ``value`` as the bridge sends it (compact JSON, UTF-8 kept)."""
    return len(json.dumps(value, ensure_ascii=False, separators=(",", ":")))


def _budget_chars(max_tokens: int | None) -> int | None:
    return None if max_tokens is None else max_tokens * CHARS_PER_TOKEN


def render(snap: Snapshot, fmt: str = "json", *, max_tokens: int | None = None) -> dict[str, Any] | str:
    """A whole snapshot in ``fmt``: a dict for json, a string otherwise."""
    budget = _budget_chars(max_tokens)
    total = len(snap.nodes)
    if fmt == "json":
        envelope = {"url": snap.url, "title": snap.title, "count": total, "nodes": [], "truncated": True, "totalCount": total}
        nodes, truncated, _ = _cut_json([n.to_json() for n in snap.nodes], budget, _size(envelope))
        out: dict[str, Any] = {"url": snap.url, "title": snap.title, "count": len(nodes), "nodes": nodes}
        if truncated:
            out["truncated"] = True
            out["totalCount"] = total
        if snap.capped:
            out["truncated"] = True
            out["nodeLimit"] = snap.capped
        return out
    header = _header(snap, fmt, total)

    def note(more: int) -> str:
        return f"# truncated: {more} more nodes (use filter=interactive, selector or a larger maxTokens)"

    lines, truncated = _cut_lines(header, _lines(snap.nodes, fmt, snap.url), budget, note(total))
    if truncated:
        lines.append(note(total - (len(lines) - len(header))))
    return "\n".join(lines) + "\n"


def render_diff(snap: Snapshot, diff: Diff, fmt: str = "json", *, max_tokens: int | None = None) -> dict[str, Any] | str:
    budget = _budget_chars(max_tokens)
    if fmt == "json":
        removed = [{"ref": n.ref, "role": n.role, "name": n.name, "nodeId": n.backend_id} for n in diff.removed]
        groups = {"added": [n.to_json() for n in diff.added], "changed": [n.to_json() for n in diff.changed], "removed": removed}
        out: dict[str, Any] = {"url": snap.url, "title": snap.title, "diff": True, "count": len(snap.nodes)}
        remaining = None if budget is None else budget - _size({**out, **{k: [] for k in groups}, "truncated": True})
        truncated = False
        for key, items in groups.items():
            kept, cut, used = _cut_json(items, remaining, 0)
            out[key] = kept
            truncated = truncated or cut
            if remaining is not None:
                remaining -= used
        if truncated:
            out["truncated"] = True
        if snap.capped:
            out["truncated"] = True
            out["nodeLimit"] = snap.capped
        return out
    header = _header(snap, fmt, len(snap.nodes))
    header.append(f"# diff: {len(diff.added)} added, {len(diff.changed)} changed, {len(diff.removed)} removed")
    groups_nodes = {"added": diff.added, "changed": diff.changed, "removed": diff.removed}
    body: list[str] = []
    if fmt == "yaml":
        # A mapping of three flat lists keeps the diff valid YAML.
        for key, nodes in groups_nodes.items():
            body.append(f"{key}:" if nodes else f"{key}: []")
            body += [f"  {yaml_line(n, indent=False)}" for n in nodes]
    else:
        for mark, nodes in zip("+~-", groups_nodes.values()):
            body += [f"{mark} {_line(n, fmt).lstrip()}" for n in nodes]
    note = "# truncated (use a larger maxTokens)"
    lines, truncated = _cut_lines(header, body, budget, note)
    if truncated:
        lines.append(note)
    return "\n".join(lines) + "\n"


def _cut_lines(header: list[str], body: list[str], budget: int | None, note: str) -> tuple[list[str], bool]:
    """Header and as many body lines as fit with ``note`` (the longest truncation note) after them."""
    lines = list(header)
    if budget is None:
        return lines + body, False
    if sum(len(line) + 1 for line in body) + sum(len(h) + 1 for h in header) <= budget:
        return lines + body, False
    used = sum(len(h) + 1 for h in header) + len(note) + 1
    for line in body:
        used += len(line) + 1
        if used > budget:
            return lines, True
        lines.append(line)
    return lines, False


def _cut_json(items: list[dict[str, Any]], budget: int | None, base: int) -> tuple[list[dict[str, Any]], bool, int]:
    """The leading items whose JSON fits in ``budget`` after ``base`` chars; also the chars they use."""
    used = 0
    if budget is None:
        return items, False, used
    for i, item in enumerate(items):
        size = _size(item) + (1 if i else 0)  # the comma between items
        if base + used + size > budget:
            return items[:i], True, used
        used += size
    return items, False, used
