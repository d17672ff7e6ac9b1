"""What an open section holds, not its header (find.passes.open_section)."""

from pinchtab.find import find
from pinchtab.find.passes.open_section import polarity


def _filter(k, title):
    return [
        {"ref": f"e{k}", "role": "button", "name": f"↓ By {title}", "expanded": True,
         "item": f"By {title} All Yes No"},
        {"ref": f"e{k + 1}", "role": "link", "name": "All", "parent": f"↓ By {title}"},
        {"ref": f"e{k + 2}", "role": "link", "name": "Yes", "parent": f"↓ By {title}"},
        {"ref": f"e{k + 3}", "role": "link", "name": "No", "parent": f"↓ By {title}"},
    ]


# an admin list's sidebar: boolean filters, each an open header over its choices
FILTERS = [
    {"ref": "e0", "role": "heading", "name": "Filter"},
    *_filter(1, "staff status"),
    *_filter(5, "superuser status"),
    {"ref": "e9", "role": "button", "name": "Help", "expanded": False},
]


def test_a_boolean_filter_query_is_the_choice_inside_not_the_open_header():
    assert find("show only staff", FILTERS)["best_ref"] == "e3"
    assert find("superusers only", FILTERS)["best_ref"] == "e7"
    assert polarity("users who are not staff") == "no"
    assert polarity("all superusers and others") == "all"


def test_acting_on_the_section_itself_keeps_the_header():
    assert find("collapse the staff status filter", FILTERS)["best_ref"] == "e1"
