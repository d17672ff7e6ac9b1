"""The outline format on real pages (issue 24): an article, a feed, a table, a form and a long page
keep every ref an agent acts with, every name, value and state of the full snapshot, in fewer
characters than the text format."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from pinchtab.browser.page.outline import CONTENT_NAMED
from tests.conftest import open_page, open_tab, snap

STATE_MARKS = {"focused": {True: "[focused]"}, "disabled": {True: "[disabled]"}, "selected": {True: "[selected]"},
               "required": {True: "[required]"}, "checked": {True: "[x]", False: "[ ]", "mixed": "[-]"},
               "pressed": {True: "[pressed]", False: "[not pressed]"},
               "expanded": {True: "[expanded]", False: "[collapsed]"}}


# One tab for the module's tests (each navigates it to a new document first).
tab = pytest.fixture(scope="module", name="tab")(open_tab)


def segment(outline: str, ref: str) -> str:
    """What the outline says of ``ref``: its line, or its part of a row."""
    m = re.search(rf"(?<!\w){ref}(?!\w)[^\n]*", outline)
    assert m, f"{ref} missing from the outline"
    # up to the next part's "|": not an escaped one, nor one in a quoted value
    return re.match(r'(?:"(?:[^"\\]|\\.)*"|\\\||[^|"]|")*', m.group(0)).group(0)


def acted_on(node: dict[str, Any]) -> bool:
    return node["role"] in {"button", "link", "textbox", "searchbox", "checkbox", "radio", "combobox", "option",
                            "Iframe"} or any(k in node for k in (*STATE_MARKS, "value"))


@pytest.mark.parametrize("page", ["outline-article.html", "outline-feed.html", "table.html", "form.html",
                                  "large.html", "docs-nav.html", "chat-dividers.html"])
def test_the_outline_keeps_what_an_agent_needs(http: httpx.Client, tab: str, pages: str, page: str) -> None:
    open_page(http, tab, f"{pages}/{page}")
    nodes = snap(http, tab)["nodes"]
    outline = http.get(f"/tabs/{tab}/snapshot", params={"format": "outline"}).text
    text = http.get(f"/tabs/{tab}/snapshot", params={"format": "text"}).text
    assert len(outline) < len(text)
    readable = outline.replace("\\|", "|")
    for i, node in enumerate(nodes):
        has_kids = i + 1 < len(nodes) and nodes[i + 1]["depth"] > node["depth"]
        if not (node["role"] in CONTENT_NAMED and has_kids):  # a cell's name is its content's
            assert node["name"] in readable, node
        if not acted_on(node):
            continue
        said = segment(outline, node["ref"])
        if node.get("value"):
            assert node["value"] in said, (node, said)
        for key, marks in STATE_MARKS.items():
            if key in node:
                assert marks[node[key]] in said, (node, said)


def test_outline_rows_refs_act_and_a_diff_shows_the_change(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/outline-feed.html")
    outline = http.get(f"/tabs/{tab}/snapshot", params={"format": "outline"}).text
    assert "# 3 articles, each: text|button|button|link" in outline
    row = next(line for line in outline.splitlines() if '"Ben, 3h"' in line)
    assert "Ferry runs late again \\| bring a book." in row
    like = re.search(r"(e\d+) Like \[pressed\]", row).group(1)
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": like})
    assert res.status_code == 200, res.text
    # an outline diff lists what changed, one node a line
    diff = http.get(f"/tabs/{tab}/snapshot", params={"format": "outline", "diff": "true"}).text
    changed = next(line for line in diff.splitlines() if line.startswith(f"~ {like}:button"))
    assert "# diff: 0 added, 1 changed, 0 removed" in diff and "[not pressed]" in changed, diff
