"""An order asked for (find.sort_intent): "newest reviews first" means the page's sort control."""

from pinchtab.find import find
from pinchtab.find.passes.sort_intent import parse, parse_by

REVIEWS = [
    {"ref": "e0", "role": "heading", "name": "Reviews (86)"},
    {"ref": "e1", "role": "combobox", "name": "Sort by", "value": "Most helpful", "heading": "Reviews (86)"},
    {"ref": "e2", "role": "button", "name": "Post review", "heading": "Reviews (86)"},
    {"ref": "e3", "role": "button", "name": "Load more reviews", "heading": "Reviews (86)"},
    {"ref": "e4", "role": "link", "name": "New recipes"},
]

SHOP = [
    {"ref": "e0", "role": "heading", "name": "Kettles"},
    {"ref": "e1", "role": "combobox", "name": "Order by", "heading": "Kettles"},
    {"ref": "e2", "role": "link", "name": "Cheapest kettles this week"},
    {"ref": "e3", "role": "heading", "name": "Reviews"},
    {"ref": "e4", "role": "button", "name": "Sort", "heading": "Reviews"},
]


def test_parse():
    assert parse("newest reviews first") == ("review",)
    assert parse("cheapest first") == ()
    assert parse("first name") is None
    assert parse("edit the first order") is None  # an ordinal, not an order
    assert parse("reviews first") is None  # no ordering word


def test_an_order_means_the_sort_control():
    assert find("newest reviews first", REVIEWS)["best_ref"] == "e1"
    assert find("show the most recent first", REVIEWS)["best_ref"] == "e1"
    assert find("post a review", REVIEWS)["best_ref"] == "e2"  # no order asked: unchanged


def test_among_sort_controls_the_one_for_what_is_named():
    assert find("cheapest kettles first", SHOP)["best_ref"] == "e1"  # "Order by" on a list control
    assert find("newest reviews first", SHOP)["best_ref"] == "e4"


# an admin list: the sorted column carries a generic toggle, every header a sort link
COLUMNS = [
    {"ref": "e0", "role": "link", "name": "Toggle sorting"},
    {"ref": "e1", "role": "link", "name": "USERNAME"},
    {"ref": "e2", "role": "link", "name": "EMAIL ADDRESS"},
    {"ref": "e3", "role": "columnheader", "name": "LAST NAME"},
    {"ref": "e4", "role": "link", "name": "LAST NAME"},
    {"ref": "e5", "role": "text", "name": "Last name"},
    {"ref": "e6", "role": "cell", "name": "Kowalski"},
]


def test_sort_by_a_column_is_that_columns_sort_link_not_a_generic_toggle():
    assert find("sort by last name", COLUMNS)["best_ref"] == "e4"
    assert find("order the users by email address", COLUMNS)["best_ref"] == "e2"
    assert parse_by("sort by last name") == ("last", "nam")  # stems
    assert parse_by("last name") is None
