"""A choice named by its own word and its group's name (find.group_choice)."""

from pinchtab.find import find

# Dash's RadioItems: a labelled list box of options, each wrapping its radio
DASHBOARD = [
    {"ref": "e0", "role": "heading", "name": "Sales dashboard"},
    {"ref": "e1", "role": "listbox", "name": "", "label": "Chart type"},
    {"ref": "e2", "role": "option", "name": "Bar"},
    {"ref": "e3", "role": "radio", "name": "Bar", "checked": True},
    {"ref": "e4", "role": "option", "name": "Line"},
    {"ref": "e5", "role": "radio", "name": "Line", "checked": False},
    {"ref": "e6", "role": "option", "name": "Pie"},
    {"ref": "e7", "role": "radio", "name": "Pie", "checked": False},
    {"ref": "e8", "role": "button", "name": "Line up"},
]


def test_the_choice_the_other_word_names_beats_its_group():
    assert find("Line chart type", DASHBOARD)["best_ref"] == "e5"
    assert find("pie chart type", DASHBOARD)["best_ref"] == "e7"


def test_the_group_stays_for_its_own_name():
    assert find("chart type", DASHBOARD)["best_ref"] == "e1"


def test_a_word_no_choice_has_leaves_the_group():
    assert find("area chart type", DASHBOARD)["best_ref"] == "e1"
