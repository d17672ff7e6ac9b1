"""Snapshots of the same document reuse the backend ids the bridge already has (browser/node_ids.py):
ids stay right when nodes come, go, move or are replaced, and a new document starts afresh. The tests
share one tab, each opening its page first (buttons.html, shown by the test before, given back by
script: page_as_loaded)."""

from __future__ import annotations

import httpx
import pytest

from tests.conftest import js, open_page, open_tab, ref_of, snap
from tests.e2e.test_actions import page_as_loaded

tab = pytest.fixture(scope="module", name="tab")(open_tab)


def ids(s: dict) -> dict[tuple[str, str], int]:
    return {(n["role"], n["name"]): n["nodeId"] for n in s["nodes"]}


def test_repeated_snapshots_keep_node_ids(http: httpx.Client, tab: str, pages: str) -> None:
    open_page(http, tab, f"{pages}/large.html")
    first, second = snap(http, tab), snap(http, tab)
    assert [n["nodeId"] for n in first["nodes"]] == [n["nodeId"] for n in second["nodes"]]
    assert all(isinstance(n["nodeId"], int) for n in second["nodes"])
    inter = snap(http, tab, filter="interactive")  # a subset of the same elements: the same ids
    keys = [(n["role"], n["name"]) for n in second["nodes"]]
    unique = {k for k in keys if keys.count(k) == 1}
    full = ids(second)
    same = [(n["role"], n["name"]) for n in inter["nodes"] if (n["role"], n["name"]) in unique]
    assert len(same) > 50
    assert all(full[k] == n["nodeId"] for k, n in zip(same, (n for n in inter["nodes"] if (n["role"], n["name"]) in unique)))


def test_new_moved_and_replaced_nodes_get_their_own_ids(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/buttons.html")
    before = snap(http, tab)
    # New buttons before the old ones (every later node shifts), one old button moved to the end,
    # one replaced by a look-alike: refs are renumbered, and each must still act on its own element.
    js(http, tab, """(() => {
        for (const t of ['New one', 'New two']) {
            const b = document.createElement('button');
            b.textContent = t;
            b.onclick = () => { document.title = 'clicked ' + t; };
            document.body.prepend(b);
        }
        document.body.append(document.getElementById('inc'));
        const old = document.getElementById('dbl');
        const twin = old.cloneNode(true);
        twin.ondblclick = null;
        twin.onclick = () => { document.title = 'clicked the twin'; };
        old.replaceWith(twin);
        return true;
    })()""")
    after = snap(http, tab)
    assert ids(after)[("button", "Increment")] == ids(before)[("button", "Increment")]  # moved, same node
    assert ids(after)[("button", "Double me")] != ids(before)[("button", "Double me")]  # a new node
    assert len({n["nodeId"] for n in after["nodes"]}) == len(after["nodes"])
    for name, title in (("New two", "clicked New two"), ("Double me", "clicked the twin"), ("New one", "clicked New one")):
        res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(after, "button", name)})
        assert res.status_code == 200, res.text
        assert js(http, tab, "document.title") == title
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(after, "button", "Increment")})
    assert res.status_code == 200, res.text
    assert js(http, tab, "document.getElementById('count').textContent") == "1"


def test_a_new_document_starts_afresh(http: httpx.Client, tab: str, pages: str) -> None:
    page_as_loaded(http, tab, f"{pages}/buttons.html")  # the test before left it there
    snap(http, tab)
    open_page(http, tab, f"{pages}/buttons.html")  # the same page again: new nodes, new ids
    s = snap(http, tab)
    res = http.post(f"/tabs/{tab}/action", json={"kind": "click", "ref": ref_of(s, "button", "Increment")})
    assert res.status_code == 200, res.text
    assert js(http, tab, "document.getElementById('count').textContent") == "1"
