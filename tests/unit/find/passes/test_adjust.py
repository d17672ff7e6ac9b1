"""Adjusting a quantity (find.adjust): "make it louder", "fewer servings", "turn the heating down"."""

from pinchtab.find import find
from pinchtab.find.passes.adjust import DOWN, UP, parse

HOME = [
    {"ref": "e0", "role": "heading", "name": "Hallway thermostat"},
    {"ref": "e1", "role": "button", "name": "Decrease target temperature", "heading": "Hallway thermostat"},
    {"ref": "e2", "role": "button", "name": "Increase target temperature", "heading": "Hallway thermostat"},
    {"ref": "e3", "role": "combobox", "name": "Mode", "value": "Heat", "heading": "Hallway thermostat"},
    {"ref": "e4", "role": "slider", "name": "Volume", "value": "60"},
    {"ref": "e5", "role": "button", "name": "Next"},
]

RECIPE = [
    {"ref": "e0", "role": "text", "name": "Servings"},
    {"ref": "e1", "role": "button", "name": "Decrease servings"},
    {"ref": "e2", "role": "spinbutton", "name": "Servings", "value": "4"},
    {"ref": "e3", "role": "button", "name": "Increase servings"},
    {"ref": "e4", "role": "link", "name": "Hearty Minestrone"},
]

CART = [
    {"ref": "e0", "role": "heading", "name": "Green Curry"},
    {"ref": "e1", "role": "button", "name": "Add", "item": "Green Curry Coconut, basil 13.50"},
    {"ref": "e2", "role": "text", "name": "Green Curry (tofu)", "item": "Green Curry (tofu) 1 13.50"},
    {"ref": "e3", "role": "button", "name": "Increase quantity", "item": "Green Curry (tofu) 1 13.50"},
    {"ref": "e4", "role": "button", "name": "Increase quantity", "item": "Pad Thai 1 12.00"},
]


def test_parse_directions():
    assert parse("make it louder")[0] == UP
    assert parse("turn the heating down")[0] == DOWN
    assert parse("fewer servings")[0] == DOWN
    assert parse("open settings") is None
    assert parse("turn down") is None  # a direction with nothing to adjust


def test_comparative_names_the_quantity():
    assert find("make it warmer", HOME)["best_ref"] == "e2"
    assert find("make it louder", HOME)["best_ref"] == "e4"  # the slider moves both ways


def test_particle_and_quantity_group():
    # "heating" is a temperature; "down" after "turn" is the direction
    assert find("turn the heating down", HOME)["best_ref"] == "e1"


def test_control_that_says_the_direction_beats_the_number_field():
    assert find("fewer servings", RECIPE)["best_ref"] == "e1"
    assert find("more servings", RECIPE)["best_ref"] == "e3"


def test_item_context_picks_the_row():
    assert find("one more green curry", CART)["best_ref"] == "e3"


def test_no_direction_leaves_the_ranking_alone():
    assert find("servings", RECIPE)["best_ref"] in ("e2", "e0")
    assert find("hearty minestrone", RECIPE)["best_ref"] == "e4"


def test_positions_and_phrasal_verbs_are_not_directions():
    assert parse("button in the lower left corner") is None
    assert parse("set up my account") is None
    assert parse("lower the volume")[0] == DOWN
