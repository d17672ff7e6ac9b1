"""Controls a form puts beside its fields: a field's shortcuts ("Today", "Now") and a dropdown
drawn as a button that shows its value (Dash, react-select)."""

from __future__ import annotations

from pinchtab.find import build_descriptors, find, parse_query
from pinchtab.find.index.pageindex import matching_role


def _dates_section() -> list[dict]:
    """Django admin's split date/time inputs, each followed by its shortcuts (live snapshot rows)."""
    els = [{"ref": "e0", "role": "button", "name": "Important dates", "depth": 1, "expanded": True}]
    n = 1
    for label in ("Last login", "Date joined"):
        for caption, shortcut, field_label in (("Date:", "Today", label), ("Time:", "Now", label.lower() + " 1")):
            els += [
                {"ref": f"e{n}", "role": "text", "name": caption, "depth": 3, "parent": "Important dates"},
                {"ref": f"e{n + 1}", "role": "textbox", "name": "", "label": field_label, "depth": 3,
                 "parent": "Important dates", "interactive": True},
                {"ref": f"e{n + 2}", "role": "link", "name": shortcut, "depth": 3, "parent": "Important dates",
                 "interactive": True},
                {"ref": f"e{n + 3}", "role": "text", "name": "|", "depth": 3, "parent": "Important dates"},
                {"ref": f"e{n + 4}", "role": "link", "name": "", "depth": 3, "parent": "Important dates",
                 "interactive": True},
            ]
            n += 5
    els.append({"ref": f"e{n}", "role": "button", "name": "Save", "depth": 1, "interactive": True})
    return els


def test_a_repeated_shortcut_takes_the_field_it_sits_beside_as_context() -> None:
    els = _dates_section()
    by_ref = {d.ref: d for d in build_descriptors(els)}
    assert by_ref["e3"].item == "Last login Date"         # Today, after the last-login date input
    assert by_ref["e8"].item == "last login 1 Time"       # Now, after its time input
    assert by_ref["e10"].item == "last login 1 Time"      # the clock icon after that Now
    assert by_ref["e18"].item == "date joined 1 Time"
    assert find("now link for the last login time", els)["best_ref"] == "e8"
    assert find("now for the date joined time", els)["best_ref"] == "e18"


def test_a_single_button_after_a_field_is_not_taken_for_its_shortcut() -> None:
    els = [
        {"ref": "e0", "role": "combobox", "name": "Action:", "depth": 2, "interactive": True},
        {"ref": "e1", "role": "button", "name": "Go", "depth": 2, "interactive": True},
        {"ref": "e2", "role": "textbox", "name": "Search", "depth": 2, "interactive": True},
        {"ref": "e3", "role": "button", "name": "Search", "depth": 2, "interactive": True},
    ]
    assert [d.item for d in build_descriptors(els)] == ["", "", "", ""]


def test_a_shortcut_needs_depths_and_stops_at_other_content() -> None:
    flat = [{k: v for k, v in e.items() if k != "depth"} for e in _dates_section()]
    assert not any(d.item for d in build_descriptors(flat))
    els = _dates_section()
    els.insert(3, {"ref": "x", "role": "text", "name": "Pick a date", "depth": 3, "parent": "Important dates"})
    assert {d.ref: d.item for d in build_descriptors(els)}["e3"] == ""


def _dash_controls() -> list[dict]:
    return [
        {"ref": "e1", "role": "button", "name": "North", "label": "Region", "expanded": False, "interactive": True},
        {"ref": "e2", "role": "button", "name": "Widget", "label": "Products", "expanded": False, "interactive": True},
        {"ref": "e3", "role": "listbox", "name": "", "interactive": True},
        {"ref": "e4", "role": "option", "name": "Show targets", "depth": 1, "interactive": True},
        {"ref": "e5", "role": "checkbox", "name": "Show targets", "depth": 2, "interactive": True},
        {"ref": "e6", "role": "button", "name": "Refresh data", "interactive": True},
        {"ref": "e7", "role": "columnheader", "name": "Region"},
    ]


def test_a_button_showing_its_chosen_value_is_the_dropdown_its_label_names() -> None:
    els = _dash_controls()
    assert find("region dropdown", els)["best_ref"] == "e1"
    assert find("region picker", els)["best_ref"] == "e1"
    assert find("products dropdown", els)["best_ref"] == "e2"
    assert find("currency dropdown", els)["best_ref"] == ""
    assert find("refresh data button", els)["best_ref"] == "e6"


def test_only_a_labelled_button_with_an_open_state_matches_as_a_dropdown() -> None:
    descs = build_descriptors([
        {"ref": "a", "role": "button", "name": "North", "label": "Region", "expanded": False},
        {"ref": "b", "role": "button", "name": "Important dates", "expanded": True},
        {"ref": "c", "role": "button", "name": "North", "label": "Region"},
        {"ref": "d", "role": "button", "name": "Menu", "label": "menu", "expanded": False},
    ])
    assert [matching_role(d) for d in descs] == ["combobox", "button", "button", "button"]
    assert [d.role for d in descs] == ["button"] * 4  # the answer still says what the page says


def test_a_weak_role_word_before_a_role_says_which_one() -> None:
    region, dropdown = parse_query("region dropdown").terms
    assert region.role is None and region.container
    assert dropdown.role == "dropdown"
    assert parse_query("dialog").terms[0].role == "dialog"
    assert parse_query("close the dialog").terms[-1].role == "dialog"


def test_select_after_what_it_holds_is_a_dropdown() -> None:
    *_, select = parse_query("open the product select").terms
    assert select.role == "dropdown"
    assert parse_query("select dana").terms[0].role is None       # the verb
    assert parse_query("click to select").terms[-1].role is None  # after a stop word: the verb
    els = _dash_controls()
    assert find("the region select", els)["best_ref"] == "e1"
