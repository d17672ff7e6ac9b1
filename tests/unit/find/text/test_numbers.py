"""Number words meet digits (find.numbers)."""

from pinchtab.find import find

RATING = [{"ref": f"e{n}", "role": "radio", "name": f"{n} star" + ("s" if n > 1 else ""), "parent": "Rate this recipe"}
          for n in range(1, 6)]


def test_number_word_meets_digits():
    assert find("give it five stars", RATING)["best_ref"] == "e5"
    assert find("three stars", RATING)["best_ref"] == "e3"
    assert find("4 stars", RATING)["best_ref"] == "e4"


def test_one_stays_a_pronoun():
    page = [{"ref": "e0", "role": "button", "name": "Edit"}, {"ref": "e1", "role": "button", "name": "1"}]
    assert find("the edit one", page)["best_ref"] == "e0"
