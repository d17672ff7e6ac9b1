"""Typos in short queries, matched on word forms as typed (find.typos)."""

from pinchtab.find import ElementIndex, find

PAGE = [
    {"ref": "e0", "role": "spinbutton", "name": "Servings"},
    {"ref": "e1", "role": "button", "name": "Checkout"},
    {"ref": "e2", "role": "searchbox", "name": "Search"},
    {"ref": "e3", "role": "link", "name": "Shipping policy"},
    {"ref": "e4", "role": "button", "name": "Receipts"},
]


def test_misspelt_word_whose_stem_misleads():
    # "serings" stems to "ser", "servings" to "serv": only the typed forms are a typo apart
    assert find("serings", PAGE)["best_ref"] == "e0"
    assert find("reciepts", PAGE)["best_ref"] == "e4"


def test_short_query_typos():
    assert find("chekout", PAGE)["best_ref"] == "e1"
    assert find("sreach field", PAGE)["best_ref"] == "e2"


def test_real_words_are_not_fuzzed_into_page_words():
    idx = ElementIndex(PAGE)
    assert idx.find("book a flight")["best_ref"] == ""
    assert idx.find("weather")["best_ref"] == ""


def test_a_real_word_a_letter_away_is_not_a_typo():
    page = [{"ref": "e0", "role": "textbox", "name": "Name"}, {"ref": "e1", "role": "button", "name": "Look up"}]
    assert find("same", page)["best_ref"] == ""


# --- the query read as spelt right (find.typos.correct_query)

PLAYER = [
    {"ref": "e0", "role": "button", "name": "Create playlist"},
    {"ref": "e1", "role": "heading", "name": "Playlists"},
    {"ref": "e2", "role": "searchbox", "name": "Search in playlist"},
    {"ref": "e3", "role": "button", "name": "Shuffle play Morning Mix"},
    {"ref": "e4", "role": "button", "name": "Enable repeat"},
]


def test_a_misspelt_word_counts_as_the_page_word_it_misspells():
    # as a typo alternative alone, "shufle" (0.8) loses to "playlist" spelt right elsewhere
    idx = ElementIndex(PLAYER)
    assert idx.find("shuffle the playlist")["best_ref"] == "e3"
    assert idx.find("shufle the playlist")["best_ref"] == "e3"


def test_vocabulary_words_are_corrected_too():
    page = [{"ref": "e0", "role": "button", "name": "Submit"}, {"ref": "e1", "role": "link", "name": "Help"},
            {"ref": "e2", "role": "button", "name": "Submit"}, {"ref": "e3", "role": "button", "name": "Submit"}]
    idx = ElementIndex(page)
    assert idx._terms.corrected("thrid submit buton") == "third submit button"
    assert idx.find("thrid submit button")["best_ref"] == "e3"  # an ordinal again, not a word to match


def test_an_english_word_the_page_lacks_is_not_corrected():
    page = [{"ref": "e0", "role": "link", "name": "Trail maps"}, {"ref": "e1", "role": "button", "name": "Look inside"}]
    idx = ElementIndex(page)
    assert idx._terms.corrected("book a train") == "book a train"
    assert idx._terms.corrected("loop this song") == "loop this song"
    assert idx.find("book a train")["best_ref"] == ""


def test_a_typo_of_two_words_is_left_as_typed():
    page = [{"ref": "e0", "role": "link", "name": "Cart"}, {"ref": "e1", "role": "button", "name": "Add card"}]
    idx = ElementIndex(page)
    assert idx._terms.corrected("carx") == "carx"  # "Cart" or "card": no guess
    assert idx._terms.corrected("cadr") == "card"


def test_english_word_list():
    from pinchtab.find.text import english

    assert english.is_english("train") and english.is_english("while")
    assert not english.is_english("shufle") and not english.is_english("langauge")
