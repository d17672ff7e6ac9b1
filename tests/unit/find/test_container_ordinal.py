"""Ordinals over containers (find.container_ordinal): "checkbox of the last row"."""

from pinchtab.find import find
from pinchtab.find.query.parse import parse_query

ROWS = [{"ref": "e0", "role": "checkbox", "name": "Select all orders", "parent": "Order Date Customer"}]
for n, who in enumerate(("Ada", "Ben", "Cy"), start=1):
    row = f"#100{n} {who} Paid"
    ROWS += [
        {"ref": f"e{n}0", "role": "row", "name": ""},
        {"ref": f"e{n}1", "role": "checkbox", "name": f"Select order #100{n}", "parent": row},
        {"ref": f"e{n}2", "role": "link", "name": f"#100{n}", "parent": row},
        {"ref": f"e{n}3", "role": "checkbox", "name": f"Flag order #100{n}", "parent": row},
    ]
ROWS.append({"ref": "e99", "role": "button", "name": "Export"})


def test_parse_counts_containers():
    pq = parse_query("checkbox of the last row")
    assert pq.ordinal == -1 and pq.ordinal_of_container
    assert [t.unit.text for t in pq.terms] == ["checkbox"]
    assert not parse_query("last row").ordinal_of_container  # the row itself
    assert not parse_query("second checkbox").ordinal_of_container


def test_ordinal_counts_rows_not_checkboxes():
    # the page's last checkbox is the last row's second one; the row's first is the pick
    assert find("checkbox of the last row", ROWS)["best_ref"] == "e31"
    assert find("link in the second row", ROWS)["best_ref"] == "e22"
    # the plain ordinal still counts the targets
    assert find("last checkbox", ROWS)["best_ref"] == "e33"
