"""An unnamed control found by the kind asked for and its caption (find.passes.unnamed_control)."""

from pinchtab.find import find
from pinchtab.find.passes.unnamed_control import parse

# a dashboard: a labelled number field, then an unnamed slider after its tick marks; a code
# editor drawn as an unnamed text area under its heading
PAGE = [
    {"ref": "e0", "role": "heading", "name": "Custom SQL query"},
    {"ref": "e1", "role": "textbox", "name": "", "heading": "Custom SQL query"},
    {"ref": "e2", "role": "button", "name": "Run SQL", "heading": "Custom SQL query"},
    {"ref": "e3", "role": "heading", "name": "Filters"},
    {"ref": "e4", "role": "spinbutton", "name": "", "label": "Minimum units", "heading": "Filters"},
    *({"ref": f"e{5 + k}", "role": "text", "name": str(10 * k), "heading": "Filters"} for k in range(6)),
    {"ref": "e11", "role": "slider", "name": "", "value": "10", "heading": "Filters"},
    {"ref": "e12", "role": "slider", "name": "Opacity", "value": "1", "heading": "Filters"},
]


def test_the_kind_asked_for_and_its_caption_name_an_unnamed_control():
    assert find("minimum units slider", PAGE)["best_ref"] == "e11"
    assert find("SQL editor", PAGE)["best_ref"] == "e1"


def test_a_labelled_control_of_the_kind_or_no_kind_word_is_left_alone():
    assert find("opacity slider", PAGE)["best_ref"] == "e12"
    assert find("minimum units", PAGE)["best_ref"] == "e4"
    assert find("run sql button", PAGE)["best_ref"] == "e2"
    assert parse("minimum units") is None
    assert parse("slider") is None  # nothing to caption it by


def test_two_unnamed_controls_side_by_side_are_a_range_s_ends():
    page = [
        {"ref": "e0", "role": "text", "name": "Years: 2000 .. 2020"},
        {"ref": "e1", "role": "slider", "name": "", "label": "Years: 2000 .. 2020", "value": "2000"},
        {"ref": "e2", "role": "slider", "name": "", "value": "2020"},
        {"ref": "e3", "role": "textbox", "name": "Alert threshold"},
    ]
    assert find("end year slider handle", page)["best_ref"] == "e2"
    assert find("start year slider", page)["best_ref"] == "e1"
