"""find: general web-UI vocabulary (synonyms an agent uses for common controls)."""

from __future__ import annotations

import pytest

from pinchtab.find import find

PAGE = [
    {"ref": "e0", "role": "button", "name": "Older"},
    {"ref": "e1", "role": "button", "name": "Newer"},
    {"ref": "e2", "role": "combobox", "name": "Cabin", "value": "Economy"},
    {"ref": "e3", "role": "button", "name": "Increase quantity"},
    {"ref": "e4", "role": "button", "name": "Decrease quantity"},
    {"ref": "e5", "role": "switch", "name": "Targeted advertising", "checked": False},
    {"ref": "e6", "role": "switch", "name": "Functional cookies", "checked": True},
    {"ref": "e7", "role": "button", "name": "Necessary only"},
    {"ref": "e8", "role": "link", "name": "View vendor list"},
    {"ref": "e9", "role": "link", "name": "View class schedule"},
    {"ref": "e10", "role": "link", "name": "Files changed 6"},
    {"ref": "e11", "role": "button", "name": "Refresh"},
    {"ref": "e12", "role": "tab", "name": "Updates"},
    {"ref": "e13", "role": "link", "name": "Press room"},
    {"ref": "e14", "role": "button", "name": "Report"},
    {"ref": "e15", "role": "link", "name": "Size guide"},
    {"ref": "e16", "role": "checkbox", "name": "Notify me of replies", "checked": True},
]


@pytest.mark.parametrize("query, ref", [
    ("next page", "e0"),
    ("previous page", "e1"),
    ("class of service selector", "e2"),
    ("plus button", "e3"),
    ("minus", "e4"),
    ("marketing toggle", "e5"),
    ("essential only", "e7"),
    ("list of partners", "e8"),
    ("class timetable", "e9"),
    ("view the diff", "e10"),
    ("reload", "e11"),
    ("size chart", "e15"),
    ("reply notifications checkbox", "e16"),
])
def test_common_ui_synonyms(query: str, ref: str) -> None:
    assert find(query, PAGE)["best_ref"] == ref


def test_room_alone_is_not_a_hotel() -> None:
    res = find("book a hotel", PAGE)
    assert res["best_ref"] != "e13"


def test_a_report_button_is_not_a_chart() -> None:
    assert find("chart", PAGE)["best_ref"] != "e14"
