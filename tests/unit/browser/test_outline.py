"""The outline snapshot format (issue 24), from hand-made snapshots: what it draws tighter, and that
every ref an agent acts with, every name, value and state stays."""

from __future__ import annotations

import re

from pinchtab.browser.page.formatting import render
from pinchtab.browser.page.nodes import Node, Snapshot
from pinchtab.browser.page.outline import lines


def refs_in(text: str) -> set[str]:
    return set(re.findall(r"(?<!\w)e\d+(?!\w)", text))


def table_snapshot(rows: int = 3) -> Snapshot:
    nodes = [Node("e0", "banner", "", 0, 1), Node("e1", "navigation", "", 1, 2), Node("e2", "link", "Home", 2, 3),
             Node("e3", "main", "", 0, 4), Node("e4", "heading", "Orders", 1, 5), Node("e5", "table", "", 1, 6),
             Node("e6", "row", "", 2, 7), Node("e7", "columnheader", "Order", 3, 8),
             Node("e8", "columnheader", "Select", 3, 9), Node("e9", "columnheader", "Note", 3, 10)]
    for i in range(rows):
        base = 10 + 4 * i
        nodes += [Node(f"e{base}", "row", "", 2, 100 + base), Node(f"e{base + 1}", "cell", f"Order {i}", 3, 101 + base),
                  Node(f"e{base + 2}", "checkbox", f"Select {i}", 3, 102 + base, checked=i == 1),
                  Node(f"e{base + 3}", "textbox", f"Note {i}", 3, 103 + base, value="late | fragile" if i == 2 else None)]
    return Snapshot(url="http://127.0.0.1/orders", title="Orders", nodes=nodes)


def test_repeated_rows_are_one_line_each_with_their_roles_named_once() -> None:
    assert lines(table_snapshot().nodes) == [
        'e2 link "Home"',
        'e4 heading "Orders"',  # main follows banner, a wrapper too: no level of its own
        "e5 table",
        " Order|Select|Note",
        " # 3 rows, each: text|checkbox|textbox",
        " Order 0|e12 [ ] Select 0|e13 Note 0",
        " Order 1|e16 [x] Select 1|e17 Note 1",
        ' Order 2|e20 [ ] Select 2|e21 Note 2 val="late | fragile"',
    ]


def test_a_row_alone_names_its_roles_in_place() -> None:
    out = lines(table_snapshot(rows=1).nodes)
    assert out[-1] == " Order 0|e12 checkbox [ ] Select 0|e13 textbox Note 0"


def test_a_bar_in_a_rows_text_is_escaped() -> None:
    nodes = [Node("e0", "row", "", 0, 1), Node("e1", "cell", "A | B", 1, 2), Node("e2", "button", "Go", 1, 3)]
    assert lines(nodes) == ["A \\| B|e2 button Go"]


def test_unnamed_wrappers_give_way_and_a_list_after_its_button_stays_under_it() -> None:
    nodes = [Node("e0", "navigation", "Docs", 0, 1), Node("e1", "button", "Guides", 1, 2, expanded=True),
             Node("e2", "list", "", 1, 3), Node("e3", "link", "Auth", 2, 4), Node("e4", "link", "Errors", 2, 5),
             Node("e5", "group", "", 1, 6), Node("e6", "button", "Save", 2, 7)]
    assert lines(nodes) == ['e0 navigation "Docs"', ' e1 button "Guides" [expanded]', '  e3 link "Auth"',
                            '  e4 link "Errors"', ' e6 button "Save"']


def test_cards_with_a_glyph_button_are_rows() -> None:
    nodes = []
    for i, who in enumerate(("Ana", "Ben")):
        b = 4 * i
        nodes += [Node(f"e{b}", "article", who, 0, b), Node(f"e{b + 1}", "paragraph", f"Hello from {who}", 1, b + 1),
                  Node(f"e{b + 2}", "button", "Like", 1, b + 2, pressed=i == 0), Node(f"e{b + 3}", "text", "+", 2, b + 3)]
    assert lines(nodes) == ["# 2 articles, each: text|button|text",
                            'e0 article "Ana": Hello from Ana|e2 Like [pressed]|+',
                            'e4 article "Ben": Hello from Ben|e6 Like [not pressed]|+']


def test_states_values_and_frames_stay_on_single_lines() -> None:
    nodes = [Node("e0", "dialog", "", 0, 1, modal=True), Node("e1", "textbox", "Email", 1, 2, value="a@b.c", focused=True),
             Node("e2", "textbox", "Code", 1, 3, placeholder="6 digits", required=True),
             Node("e3", "button", "Send", 1, 4, disabled=True), Node("e4", "text", "Check your inbox", 1, 5),
             Node("e5", "Iframe", "", 0, 6, frame={"url": "http://127.0.0.1/x"}), Node("e6", "radio", "Pro", 1, 7, checked="mixed")]
    assert lines(nodes) == ["e0 dialog", ' e1 textbox "Email" val="a@b.c" [focused]',
                            ' e2 textbox "Code" placeholder="6 digits" [required]', ' e3 button "Send" [disabled]',
                            ' e4 "Check your inbox"', 'e5 Iframe url="http://127.0.0.1/x"', ' e6 radio [-] "Pro"']


def test_nothing_an_agent_acts_with_is_lost() -> None:
    snap = table_snapshot(rows=20)
    out = render(snap, "outline")
    assert isinstance(out, str) and out.startswith("# Orders | http://127.0.0.1/orders | ")
    lost = {n.ref for n in snap.nodes} - refs_in(out)
    for node in snap.nodes:
        if node.ref in lost:  # a wrapper, a row or text in a row: never a control
            assert not node.interactive and node.value is None and node.checked is None
        assert node.name in out.replace("\\|", "|")
    assert lost == {"e0", "e1", "e3", "e6", "e7", "e8", "e9"} | {f"e{10 + 4 * i + k}" for i in range(20) for k in (0, 1)}


def test_a_frame_on_the_pages_origin_reads_from_its_path() -> None:
    nodes = [Node("e0", "Iframe", "Signup", 0, 1, frame={"url": "http://127.0.0.1:8/f/inner.html?x=1"}),
             Node("e1", "Iframe", "Ad", 0, 2, frame={"url": "http://ads.example/a"}),
             Node("e2", "Iframe", "Port", 0, 3, frame={"url": "http://127.0.0.1:80/p"})]
    assert lines(nodes, "http://127.0.0.1:8/page.html") == [
        'e0 Iframe "Signup" url="/f/inner.html?x=1"', 'e1 Iframe "Ad" url="http://ads.example/a"',
        'e2 Iframe "Port" url="http://127.0.0.1:80/p"']
    assert render(Snapshot(url="http://127.0.0.1:8/", title="T", nodes=nodes[:1]), "outline").endswith(
        'e0 Iframe "Signup" url="/f/inner.html?x=1"\n')


def test_a_list_after_a_heading_is_not_indented_under_it() -> None:
    nodes = [Node("e0", "heading", "Inbox", 0, 1), Node("e1", "list", "", 0, 2), Node("e2", "listitem", "", 1, 3),
             Node("e3", "link", "Message 1", 2, 4), Node("e4", "listitem", "", 1, 5), Node("e5", "link", "Message 2", 2, 6)]
    assert lines(nodes) == ['e0 heading "Inbox"', "# 2 listitems, each: link", "e3 Message 1", "e5 Message 2"]


def test_a_control_named_only_by_the_text_inside_it_is_one_line() -> None:
    nodes = [Node("e0", "button", "", 0, 1), Node("e1", "text", "Open settings", 1, 2),
             Node("e2", "dialog", "", 0, 3, modal=True), Node("e3", "text", "Saved", 1, 4)]
    # a dialog holding text is not a control: its text stays its own line
    assert lines(nodes) == ['e0 button "Open settings"', "e2 dialog", ' e3 "Saved"']
