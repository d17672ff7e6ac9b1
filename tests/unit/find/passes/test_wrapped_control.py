"""A label that wraps its own control (find.passes.wrapped_control): the control is the answer."""

from pinchtab.find import find

# Dash's RadioItems/Checklist: each choice is an option whose content is the input and its text
CHOICES = [
    {"ref": "e0", "role": "listbox", "name": ""},
    {"ref": "e1", "role": "option", "name": "Bar"},
    {"ref": "e2", "role": "radio", "name": "Bar", "checked": True},
    {"ref": "e3", "role": "option", "name": "Pie"},
    {"ref": "e4", "role": "radio", "name": "Pie", "checked": False},
    {"ref": "e5", "role": "option", "name": "Include returns"},
    {"ref": "e6", "role": "checkbox", "name": "Include returns", "checked": False},
    {"ref": "e7", "role": "option", "name": "Rainfall"},
    {"ref": "e8", "role": "option", "name": "Wind speed"},
]


def test_the_control_inside_beats_the_option_around_it():
    assert find("pie", CHOICES)["best_ref"] == "e4"
    assert find("include returns", CHOICES)["best_ref"] == "e6"  # both at the score's ceiling


def test_an_option_with_no_control_inside_stays_the_answer():
    assert find("wind speed", CHOICES)["best_ref"] == "e8"
    assert find("rainfall", CHOICES)["best_ref"] == "e7"

