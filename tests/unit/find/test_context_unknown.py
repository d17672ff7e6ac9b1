"""A context phrase in words the page does not use ("in the track list") does not sink the match."""

from pinchtab.find import find

ROW = "3 Holocene Bon Iver 5:36"
PAGE = [
    {"ref": "e0", "role": "link", "name": "Holocene", "parent": ROW},
    {"ref": "e1", "role": "link", "name": "Bon Iver", "parent": ROW},
    {"ref": "e2", "role": "button", "name": "Add to Liked Songs", "parent": ROW},
    {"ref": "e3", "role": "button", "name": "Add to Liked Songs", "parent": "4 Re: Stacks Bon Iver 6:41"},
    {"ref": "e4", "role": "link", "name": "Liked Songs", "section": "Sidebar"},
]


def test_unknown_context_words_are_not_counted():
    res = find("like Holocene in the track list", PAGE)
    assert res["best_ref"] == "e2"
    # as strong as without the phrase (it used to fall toward the threshold)
    assert res["score"] >= 0.85 * find("like Holocene", PAGE)["score"]
    assert find("Bon Iver in the results list", PAGE)["score"] >= 0.7


def test_known_context_still_places_the_target():
    assert find("liked songs in the sidebar", PAGE)["best_ref"] == "e4"
