"""Globs match as their regular-expression forms did, and a pathological glob costs no more than a
plain one (issue 27 rows 1 and 2: a backtracking regex froze the bridge)."""

import re
import threading

from pinchtab.globs import Glob


def _regex(pattern: str, segment_star: bool) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        if segment_star and pattern.startswith("**", i):
            out.append(".*")
            i += 2
            continue
        c = pattern[i]
        out.append(("[^/]*" if segment_star else ".*") if c == "*" else "." if c == "?" else re.escape(c))
        i += 1
    return re.compile("".join(out))


CASES = [
    ("a?c", "abc"), ("a?c", "ac"), ("*.png", "http://h/x.png"), ("*.png", "http://h/x.png?y"),
    ("http://h/*/x", "http://h/a/b/x"), ("http://h/*/x", "http://h/a/x"), ("**/dash*", "http://h/app/dashboard"),
    ("*ads*track*", "https://x/ads/v1/track?id=1"), ("", ""), ("", "x"), ("*", ""), ("**", "a/b"),
    ("a*", "a"), ("*a", "ba"), ("a**b*c", "a/x/b/yc"), ("a*b", "a/xab"), ("x?*y", "x/y"), ("***", "//"),
]


def test_same_answers_as_the_regular_expressions() -> None:
    for pattern, text in CASES:
        for segment in (False, True):
            regex = _regex(pattern, segment)
            glob = Glob(pattern, segment_star=segment)
            assert glob.fullmatch(text) == bool(regex.fullmatch(text)), (pattern, text, segment)
            assert glob.search(text) == bool(regex.search(text)), (pattern, text, segment)


def test_many_stars_on_a_long_url_finish() -> None:
    url = "https://example.test/?" + "a" * 32_000
    answers: list[bool] = []

    def run() -> None:
        answers.append(Glob("*a" * 25 + " b", segment_star=True).search(url))
        answers.append(Glob("*ads*track*pixel*").fullmatch(url))

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(120)  # a liveness bound, not a speed check: the regexes never came back
    assert answers == [False, False]
