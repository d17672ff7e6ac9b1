"""Near-ties settled by the word a label opens with (find.leading_verb)."""

from pinchtab.find import find

PR = [
    {"ref": "e0", "role": "button", "name": "Merge pull request", "heading": "This branch has no conflicts"},
    {"ref": "e1", "role": "button", "name": "Select merge method", "heading": "This branch has no conflicts"},
    {"ref": "e2", "role": "text", "name": "wants to merge 3 commits into"},
]


def test_label_opening_with_the_query_word_wins_a_near_tie():
    assert find("merge button", PR)["best_ref"] == "e0"
    # a query asking for the other action keeps it
    assert find("select merge method", PR)["best_ref"] == "e1"


DUAL_LIST = [
    {"ref": "e0", "role": "listbox", "name": "Available permissions"},
    {"ref": "e1", "role": "button", "name": "Choose all permissions", "description": "moves to Chosen permissions"},
    {"ref": "e2", "role": "button", "name": "Choose selected permissions", "description": "moves to Chosen permissions",
     "disabled": True},
    {"ref": "e3", "role": "listbox", "name": "Chosen permissions"},
]


def test_a_label_saying_all_loses_a_near_tie_the_query_does_not_widen():
    assert find("Choose", DUAL_LIST)["best_ref"] == "e2"
    # asked for all, the wider control stays
    assert find("Choose all", DUAL_LIST)["best_ref"] == "e1"
    assert find("choose every permission", DUAL_LIST)["best_ref"] == "e1"
