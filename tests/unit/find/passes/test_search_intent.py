"""Search requests pick the search field (find.search_intent): "find a song", "filter this playlist"."""

from pinchtab.find import find
from pinchtab.find.passes.search_intent import parse

MUSIC = [
    {"ref": "e0", "role": "link", "name": "Liked Songs", "section": "Sidebar"},
    {"ref": "e1", "role": "searchbox", "name": "What do you want to play?", "heading": "Playlists"},
    {"ref": "e2", "role": "paragraph", "name": "Public playlist", "heading": "Sunday Morning"},
    {"ref": "e3", "role": "button", "name": "Create playlist"},
    {"ref": "e4", "role": "searchbox", "name": "Search in playlist", "heading": "Sunday Morning"},
]
FLIGHTS = [
    {"ref": "e0", "role": "searchbox", "name": "Search the site"},
    {"ref": "e1", "role": "button", "name": "Search flights"},
    {"ref": "e2", "role": "link", "name": "Flights"},
]


def test_parse():
    assert parse("find a song") == ("song",)
    assert parse("look for a hotel") == ("hotel",)
    assert parse("find my orders") is None          # a known thing: the link
    assert parse("filter by price") is None         # a filter control
    assert parse("find the login button") is None   # a role word decides


def test_search_request_picks_the_field():
    assert find("find a song", MUSIC)["best_ref"] == "e1"  # none names songs: the first
    assert find("filter this playlist", MUSIC)["best_ref"] == "e4"


def test_a_search_control_already_best_stays():
    assert find("search for flights", FLIGHTS)["best_ref"] == "e1"
    assert find("liked songs", MUSIC)["best_ref"] == "e0"


def test_a_definite_object_is_a_thing_not_a_search():
    assert parse("find the pricing page") is None
    assert parse("browse the catalog") is None


SEARCH_FORM = [
    {"ref": "e0", "role": "link", "name": "Customer", "section": "Navigation"},
    {"ref": "e1", "role": "textbox", "name": "name, email", "section": "Search"},
    {"ref": "e2", "role": "button", "name": "Search", "section": "Search"},
]


def test_search_a_plural_is_the_field_of_a_search_landmark_not_its_button():
    assert find("search customers", SEARCH_FORM)["best_ref"] == "e1"
    assert find("search button", SEARCH_FORM)["best_ref"] == "e2"
