"""Snapshot output formats, diffs and the maxTokens budget, from hand-made snapshots (no browser)."""

from __future__ import annotations

import json
import re

import pytest

from pinchtab.browser.page.formatting import CHARS_PER_TOKEN, FORMATS, diff_snapshots, render, render_diff
from pinchtab.browser.page.nodes import Node, Snapshot


def wire_size(out: dict | str) -> int:
    """Characters on the wire, as the bridge sends them (compact JSON, UTF-8 kept)."""
    if isinstance(out, str):
        return len(out)
    return len(json.dumps(out, ensure_ascii=False, separators=(",", ":")))


def login_snapshot() -> Snapshot:
    nodes = [
        Node("e0", "navigation", "Main", 0, 100),
        Node("e1", "link", "Home", 1, 101),
        Node("e2", "main", "", 0, 102),
        Node("e3", "heading", "Welcome back", 1, 103),
        Node("e4", "form", "Login form", 1, 104),
        Node("e5", "textbox", "Email", 2, 105, value="a@b.c", focused=True),
        Node("e6", "textbox", "Password", 2, 106, placeholder="secret"),
        Node("e7", "checkbox", "Remember me", 2, 107, checked=False),
        Node("e8", "button", "Submit", 2, 108),
        Node("e9", "button", "Delete", 2, 109, disabled=True),
        Node("e10", "checkbox", "All", 2, 110, checked="mixed"),
        Node("e11", "text", "Forgot it?", 1, 111),
    ]
    return Snapshot(url="http://127.0.0.1/login", title="Login", nodes=nodes)


def big_snapshot(n: int = 500) -> Snapshot:
    nodes = [Node(f"e{i}", "button" if i % 2 else "link", f"Item number {i} with a longer name", i % 4, 1000 + i)
             for i in range(n)]
    return Snapshot(url="http://127.0.0.1/big", title="Big page", nodes=nodes)


# -- json -----------------------------------------------------------------------------------------


def test_json_shape() -> None:
    out = render(login_snapshot(), "json")
    assert isinstance(out, dict)
    assert out["url"] == "http://127.0.0.1/login" and out["title"] == "Login" and out["count"] == 12
    assert "truncated" not in out
    nodes = out["nodes"]
    assert [n["ref"] for n in nodes] == [f"e{i}" for i in range(12)]
    assert nodes[0] == {"ref": "e0", "role": "navigation", "name": "Main", "depth": 0, "nodeId": 100}
    assert nodes[5] == {"ref": "e5", "role": "textbox", "name": "Email", "value": "a@b.c", "depth": 2,
                        "focused": True, "nodeId": 105}
    assert nodes[7]["checked"] is False
    assert nodes[9]["disabled"] is True
    assert nodes[10]["checked"] == "mixed"
    # optional fields are left out, not null
    assert all(None not in n.values() for n in nodes)
    assert "focused" not in nodes[8] and "disabled" not in nodes[8] and "checked" not in nodes[8]
    assert "value" not in nodes[8]


def test_json_keeps_an_empty_value() -> None:
    snap = Snapshot("u", "t", [Node("e0", "textbox", "Name", 0, 1, value="")])
    assert render(snap, "json")["nodes"][0]["value"] == ""


# -- text -----------------------------------------------------------------------------------------


def test_text_format() -> None:
    out = render(login_snapshot(), "text")
    assert isinstance(out, str)
    lines = out.splitlines()
    assert lines[:3] == ["# Login", "# http://127.0.0.1/login", "# 12 nodes"]
    assert lines[3] == "e0 navigation \"Main\""
    assert lines[4] == "  e1 link \"Home\""
    assert lines[5] == "e2 main"  # no name, no quotes
    assert lines[8] == "    e5 textbox \"Email\" val=\"a@b.c\" [focused]"
    assert lines[9] == "    e6 textbox \"Password\" placeholder=\"secret\""
    assert lines[10] == "    e7 checkbox \"Remember me\" [unchecked]"
    assert lines[11] == "    e8 button \"Submit\""
    assert lines[12] == "    e9 button \"Delete\" [disabled]"
    assert lines[13] == "    e10 checkbox \"All\" [checked=mixed]"
    assert lines[14] == "  e11 text \"Forgot it?\""
    assert len(lines) == 15


def test_text_indentation_is_two_spaces_per_depth() -> None:
    snap = login_snapshot()
    lines = render(snap, "text").splitlines()[3:]
    for node, line in zip(snap.nodes, lines, strict=True):
        indent = len(line) - len(line.lstrip(" "))
        assert indent == 2 * node.depth, line


def test_text_quotes_names_safely() -> None:
    snap = Snapshot("u", "t", [Node("e0", "button", 'Say "hi"\\now', 0, 1, value="x\ny")])
    line = render(snap, "text").splitlines()[3]
    assert line == 'e0 button "Say \\"hi\\"\\\\now" val="x\\ny"'


def test_compact_format() -> None:
    snap = login_snapshot()
    out = render(snap, "compact")
    lines = out.splitlines()
    assert len(lines) == 1 + len(snap.nodes)  # one-line header
    assert lines[0].startswith("#") and "Login" in lines[0] and "12" in lines[0]
    assert lines[1] == 'e0:navigation "Main"'
    assert lines[6] == 'e5:textbox "Email" val="a@b.c" [focused]'
    assert all(not line.startswith(" ") for line in lines)
    assert len(out) < len(render(snap, "text"))
    assert len(out) < wire_size(render(snap, "json")) / 2


# -- yaml -----------------------------------------------------------------------------------------


def test_yaml_format_is_playwright_style() -> None:
    out = render(login_snapshot(), "yaml")
    lines = out.splitlines()
    assert lines[0] == "# Login" and lines[1] == "# http://127.0.0.1/login"
    body = lines[2:]
    # nodes with children end with ":" (a YAML mapping holding the children's list)
    assert body[0] == '- navigation "Main" [ref=e0]:'
    assert body[1] == '  - link "Home" [ref=e1]'
    assert body[2] == "- main [ref=e2]:"
    assert body[4] == '  - form "Login form" [ref=e4]:'
    assert body[5] == '    - textbox "Email" [ref=e5] [focused]: "a@b.c"'
    assert body[7] == '    - checkbox "Remember me" [ref=e7] [unchecked]'
    assert body[9] == '    - button "Delete" [ref=e9] [disabled]'
    assert body[11] == '  - text "Forgot it?" [ref=e11]'


def _yaml_structure_ok(text: str) -> None:
    """A small check of the YAML rules the output relies on (no YAML parser in the project)."""
    lines = [line for line in text.splitlines() if not line.startswith("#")]
    for i, line in enumerate(lines):
        indent = len(line) - len(line.lstrip(" "))
        assert indent % 2 == 0 and line[indent:].startswith("- "), line
        item = line[indent + 2:]
        nxt = lines[i + 1] if i + 1 < len(lines) else ""
        deeper = len(nxt) - len(nxt.lstrip(" ")) > indent
        if item.startswith("'"):
            end = item.index("'", 1)
            while end + 1 < len(item) and item[end + 1] == "'":  # '' escapes a quote
                end = item.index("'", end + 2)
            key, rest = item[: end + 1], item[end + 1:]
        else:
            key, sep, value = item.partition(": ")
            rest = sep + value
            assert not key.endswith(":") or deeper, line
            key = key.removesuffix(":")
            # A plain scalar must not hold ": " or " #", nor start with an indicator.
            assert ": " not in key and " #" not in key and key[0] not in "-?:,[]{}#&*!|>'\"%@`", line
        if deeper:
            assert rest == ":" or item.endswith(":"), f"parent without ':': {line}"
        elif rest:
            assert rest.startswith(": ") and json.loads(rest[2:]) is not None, line


def test_yaml_is_valid_for_awkward_names() -> None:
    nodes = [
        Node("e0", "navigation", "Docs: start here #1", 0, 1),
        Node("e1", "link", "It's - a 'quote'", 1, 2),
        Node("e2", "textbox", "Ratio", 1, 3, value="a: b # c"),
        Node("e3", "heading", "Ends with colon:", 0, 4),
        Node("e4", "button", "", 0, 5),
    ]
    out = render(Snapshot("u", "t: #x", nodes), "yaml")
    _yaml_structure_ok(out)
    assert "'navigation \"Docs: start here #1\" [ref=e0]':" in out
    assert '- link "It\'s - a \'quote\'" [ref=e1]' in out
    assert '- textbox "Ratio" [ref=e2]: "a: b # c"' in out
    _yaml_structure_ok(render(login_snapshot(), "yaml"))


def test_yaml_node_with_value_and_children() -> None:
    nodes = [Node("e0", "combobox", "Country", 0, 1, value="France"), Node("e1", "option", "France", 1, 2)]
    out = render(Snapshot("u", "t", nodes), "yaml")
    _yaml_structure_ok(out)
    assert "France" in out.splitlines()[2]  # the value is not lost


# -- diff -----------------------------------------------------------------------------------------


def test_diff_added_changed_removed() -> None:
    before = login_snapshot()
    nodes = [Node(n.ref, n.role, n.name, n.depth, n.backend_id, value=n.value, checked=n.checked,
                  disabled=n.disabled, focused=n.focused) for n in before.nodes if n.backend_id != 109]
    by_id = {n.backend_id: n for n in nodes}
    by_id[107].checked = True  # Remember me
    by_id[105].value = "new@b.c"  # Email
    nodes.append(Node("e12", "button", "Log out", 1, 200))
    # refs are element identities: the same element keeps its ref, a new one gets a new number
    after = Snapshot(before.url, before.title, nodes)
    d = diff_snapshots(before, after)
    assert [n.name for n in d.added] == ["Log out"]
    assert sorted(n.backend_id for n in d.changed) == [105, 107]
    assert [n.name for n in d.removed] == ["Delete"]

    out = render_diff(after, d, "json")
    assert out["diff"] is True and out["count"] == len(after.nodes)
    assert [n["name"] for n in out["added"]] == ["Log out"]
    assert out["added"][0]["ref"] == "e12"
    changed = {n["name"]: n for n in out["changed"]}
    assert changed["Remember me"]["checked"] is True and changed["Email"]["value"] == "new@b.c"
    assert out["removed"] == [{"ref": "e9", "role": "button", "name": "Delete", "nodeId": 109}]

    text = render_diff(after, d, "text")
    lines = text.splitlines()
    assert any(line.startswith("# diff: 1 added, 2 changed, 1 removed") for line in lines)
    assert '+ e12 button "Log out"' in lines
    assert '~ e7 checkbox "Remember me" [checked]' in lines
    assert '- e9 button "Delete" [disabled]' in lines


def test_diff_without_previous_is_all_added() -> None:
    snap = login_snapshot()
    d = diff_snapshots(None, snap)
    assert len(d.added) == len(snap.nodes) and not d.changed and not d.removed


def test_diff_of_identical_snapshots_is_empty() -> None:
    d = diff_snapshots(login_snapshot(), login_snapshot())
    assert (d.added, d.changed, d.removed) == ([], [], [])
    out = render_diff(login_snapshot(), d, "json")
    assert (out["added"], out["changed"], out["removed"]) == ([], [], [])


def test_diff_in_every_format_renders() -> None:
    before, after = login_snapshot(), big_snapshot(3)
    for n in after.nodes:  # other elements than the login page's
        n.ref = f"e{100 + int(n.ref[1:])}"
    d = diff_snapshots(before, after)
    for fmt in FORMATS:
        out = render_diff(after, d, fmt)
        assert out
    yaml = render_diff(after, d, "yaml").splitlines()
    body = [line for line in yaml if not line.startswith("#")]
    # a mapping of three flat lists
    assert body[0] == "added:" and body[1] == '  - link "Item number 0 with a longer name" [ref=e100]'
    assert "changed: []" in body
    assert body.index("removed:") == 5 and body[6].startswith("  - navigation")
    _yaml_structure_ok("\n".join(line[2:] for line in body if line.startswith("  ")))


# -- maxTokens ------------------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("max_tokens", [60, 200, 1000, 3000])
def test_max_tokens_keeps_output_within_budget(fmt: str, max_tokens: int) -> None:
    snap = big_snapshot(500)
    full = render(snap, fmt)
    out = render(snap, fmt, max_tokens=max_tokens)
    assert wire_size(out) <= max_tokens * CHARS_PER_TOKEN
    assert wire_size(out) < wire_size(full)
    if isinstance(out, dict):
        assert out["truncated"] is True
        assert out["count"] == len(out["nodes"]) < len(snap.nodes)
        # the kept nodes are the first ones, unchanged
        assert out["nodes"] == full["nodes"][: out["count"]]
    else:
        assert "truncated" in out.splitlines()[-1]
        kept = [line for line in out.splitlines() if not line.startswith("#")]
        assert kept == [line for line in full.splitlines() if not line.startswith("#")][: len(kept)]


@pytest.mark.parametrize("fmt", FORMATS)
def test_max_tokens_uses_most_of_the_budget(fmt: str) -> None:
    out = render(big_snapshot(500), fmt, max_tokens=2000)
    assert wire_size(out) > 2000 * CHARS_PER_TOKEN * 0.8


@pytest.mark.parametrize("fmt", FORMATS)
def test_max_tokens_large_enough_changes_nothing(fmt: str) -> None:
    snap = login_snapshot()
    assert render(snap, fmt, max_tokens=100000) == render(snap, fmt)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("max_tokens", [100, 400, 1500])
def test_max_tokens_applies_to_diffs(fmt: str, max_tokens: int) -> None:
    before = big_snapshot(300)
    after = Snapshot("http://127.0.0.1/big", "Big page",
                     [Node(f"e{i}", "button", f"Fresh button {i} with a long label", 0, 5000 + i) for i in range(300)])
    d = diff_snapshots(before, after)
    out = render_diff(after, d, fmt, max_tokens=max_tokens)
    assert wire_size(out) <= max_tokens * CHARS_PER_TOKEN
    if isinstance(out, dict):
        assert out["truncated"] is True
    else:
        assert re.search(r"truncated", out)
