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
