"""An order asked for (find.sort_intent): "newest reviews first" means the page's sort control."""

from pinchtab.find import find
from pinchtab.find.passes.sort_intent import parse

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
