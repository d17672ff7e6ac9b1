"""Actions on a named item prefer the item's control over its title (find.item_action)."""

from pinchtab.find import find
from pinchtab.find.passes.item_action import parse

MENU = [
    {"ref": "e0", "role": "heading", "name": "Pad Thai", "interactive": False},
    {"ref": "e1", "role": "button", "name": "Add", "heading": "Pad Thai", "item": "Pad Thai Rice noodles $14.00 Add"},
    {"ref": "e2", "role": "heading", "name": "Thai Iced Tea", "interactive": False},
    {"ref": "e3", "role": "button", "name": "Add", "heading": "Thai Iced Tea"},
    {"ref": "e4", "role": "link", "name": "Your order"},
]
TILES = [
    {"ref": "e0", "role": "tab", "name": "Garage"},
    {"ref": "e1", "role": "heading", "name": "Garage door", "interactive": False},
    {"ref": "e2", "role": "button", "name": "Open", "heading": "Garage door", "item": "Garage door Closed Open Activity"},
    {"ref": "e3", "role": "link", "name": "Activity", "heading": "Garage door", "item": "Garage door Closed Open Activity"},
    {"ref": "e4", "role": "heading", "name": "Front door", "interactive": False},
    {"ref": "e5", "role": "button", "name": "Unlock", "heading": "Front door", "item": "Front door Locked Unlock"},
]


def test_parse_drops_the_destination():
    controls, item = parse("add the pad thai to my order")
    assert "add" in controls and item == ["pad", "thai"]
    assert parse("order a thai iced tea")[1][0] == "thai"
    assert parse("pad thai") is None


def test_action_on_item_picks_its_control():
    assert find("order a thai iced tea", MENU)["best_ref"] == "e3"
    assert find("add the pad thai to my order", MENU)["best_ref"] == "e1"
    assert find("open the garage", TILES)["best_ref"] == "e2"


def test_item_without_the_action_keeps_its_title():
    assert find("pad thai", MENU)["best_ref"] == "e0"
    assert find("garage tab", TILES)["best_ref"] == "e0"
    # no control of that action in the item: the plain ranking stands
    assert find("unlock the garage", TILES)["best_ref"] != "e2"


ORDERS = [{"ref": "e0", "role": "link", "name": "Orders", "section": "Sidebar"}]
for _n in (1003, 1004):
    _row = f"#{_n} Jun 2 Dana Okafor $57.25 Refunded"
    ORDERS += [
        {"ref": f"e{_n}1", "role": "checkbox", "name": f"Select order #{_n}", "parent": _row},
        {"ref": f"e{_n}2", "role": "link", "name": f"#{_n}", "parent": _row},
        {"ref": f"e{_n}3", "role": "button", "name": f"Delete order #{_n}", "parent": _row},
    ]


def test_open_item_without_open_control_picks_its_own_link():
    # no "Open"/"View" control in the row: the row's link named by the identifier
    assert find("open order #1004", ORDERS)["best_ref"] == "e10042"
    # other verbs keep the ranking: "select" names the checkbox itself
    assert find("select order #1004", ORDERS)["best_ref"] == "e10041"


SHOP = [
    {"ref": "e0", "role": "link", "name": "Wishlist", "section": "Header"},
    {"ref": "e1", "role": "link", "name": "Cart, 2 items", "section": "Header"},
    {"ref": "e2", "role": "heading", "name": "Trailhead Merino Hoodie"},
    {"ref": "e3", "role": "button", "name": "Add to cart", "heading": "Trailhead Merino Hoodie"},
    {"ref": "e4", "role": "button", "name": "Add to wishlist", "heading": "Trailhead Merino Hoodie"},
]


def test_action_to_a_destination_picks_the_control_not_the_destination_link():
    assert find("save item to wishlist", SHOP)["best_ref"] == "e4"
    assert find("save this to my wishlist", SHOP)["best_ref"] == "e4"
    # naming the destination alone still means the destination
    assert find("wishlist", SHOP)["best_ref"] == "e0"
