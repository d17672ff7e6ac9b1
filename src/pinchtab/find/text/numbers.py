"""Number words: "give it five stars" is "5 stars", "two adults" is "2 adults".

Each number from two to twelve (and the round tens a rating or a tip uses) is a synonym
group of its word and its digits, added to the concept tables like the groups of
:mod:`.vocab`. "one" is left out: as a pronoun ("the second one", "one more") it is far more
common in queries than the number.
"""

from __future__ import annotations

__all__ = ["NUMBER_SYNONYMS"]

_WORDS = ("two three four five six seven eight nine ten eleven twelve").split()
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "hundred": 100}

NUMBER_SYNONYMS: list[tuple[str, str, list[str]]] = (
    [(f"num{n}", "syn", [w, str(n)]) for n, w in enumerate(_WORDS, start=2)]
    + [(f"num{n}", "syn", [w, str(n)]) for w, n in _TENS.items()]
)
