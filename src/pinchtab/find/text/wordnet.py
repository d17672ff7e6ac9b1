"""WordNet 3.0 relations of query words, from a compact table shipped with find.

WordNet (Princeton; its licence is ``data/wordnet-3.0-LICENSE.txt``, beside the table) relates
words a page and a query may not share: "perks" is a *fringe benefit*, "electricity" is
*electrical energy*, and it lists antonyms ("upgrade" / "downgrade"), which must never stand in
for each other. ``data/wordnet-3.0.tsv.gz`` holds the relations find uses of every single word
WordNet knows (synonyms, derivations, similar adjectives, a noun's hypernyms, antonyms) and its
exceptional inflections; ``scripts/build_wordnet_table.py`` writes it from the WordNet database
files and says which relations it keeps.

The table is decompressed once, on first use, into one bytes object (5 MB) and searched
by bisection: its lines are sorted by their key ``word.pos``; nothing is parsed up front.
"""

from __future__ import annotations

import gzip
import threading
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["WordNet", "Related", "SUFFIXES", "TABLE_PATH", "load"]

TABLE_PATH = Path(__file__).parent / "data" / "wordnet-3.0.tsv.gz"
POS = ("n", "v", "a", "r")
KINDS = {"s": "syn", "d": "deriv", "i": "sim", "h": "hyper"}
# inflections undone before a lookup (WordNet's "morphy" rules), per part of speech
SUFFIXES = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}


@dataclass(frozen=True, slots=True)
class Related:
    """A lemma related to a word: ``kind`` is "syn" (same sense), "deriv" (derivationally
    related), "sim" (similar adjective) or "hyper" (what the word is a kind of); ``pos`` the
    related lemma's part of speech."""

    lemma: str
    kind: str
    pos: str


@dataclass(frozen=True, slots=True)
class _Entry:
    related: tuple[Related, ...]
    antonyms: tuple[str, ...]
    bases: tuple[str, ...]  # what an exceptional inflection stands for ("geese" -> "goose")


def _line(blob: bytes, key: bytes) -> bytes | None:
    """The line of ``blob`` (sorted lines, each starting ``key<TAB>``) whose key is ``key``."""
    lo, hi = 0, len(blob)
    while lo < hi:  # lo and hi are line starts (or the end)
        mid = (lo + hi) // 2
        start = blob.rfind(b"\n", 0, mid) + 1
        end = blob.find(b"\n", start)
        end = len(blob) if end < 0 else end
        k = blob[start:blob.find(b"\t", start, end)]
        if k == key:
            return blob[start:end]
        if k < key:
            lo = end + 1
        else:
            hi = start
    return None


class WordNet:
    """Lookups in one table (see the module's docstring)."""

    def __init__(self, blob: bytes) -> None:
        self.blob = blob
        self.entry = lru_cache(maxsize=8192)(self._entry)
        self.lemmas = lru_cache(maxsize=4096)(self._lemmas)

    @classmethod
    def from_file(cls, path: Path) -> WordNet:
        return cls(gzip.decompress(path.read_bytes()))

    def _entry(self, word: str, pos: str) -> _Entry | None:
        line = _line(self.blob, f"{word}.{pos}".encode("utf-8"))
        if line is None:
            return None
        _key, rel, ant, bases = line.decode("utf-8").split("\t")
        return _Entry(tuple(Related(t[2:], KINDS[t[0]], t[1]) for t in rel.split()), tuple(ant.split()),
                      tuple(bases.split()))

    def _is_lemma(self, word: str, pos: str) -> bool:
        e = self.entry(word, pos)
        return e is not None and bool(e.related or e.antonyms)

    def _lemmas(self, word: str, pos: str) -> tuple[str, ...]:
        """The base forms of ``word`` the table holds as ``pos`` (the word itself first)."""
        e = self.entry(word, pos)
        out: list[str] = []
        for base in (word, *(e.bases if e else ()),
                     *(word[: len(word) - len(s)] + r for s, r in SUFFIXES[pos] if word.endswith(s))):
            if base and base not in out and self._is_lemma(base, pos):
                out.append(base)
        return tuple(out)

    def related(self, word: str) -> list[Related]:
        """Lemmas related to ``word`` as any part of speech, in WordNet's order (the table keeps
        relations through a lemma's two most frequent senses; rare senses - "collect" as a
        prayer - stay out)."""
        return [r for p in POS for lem in self.lemmas(word, p) for r in self.entry(lem, p).related]

    def antonyms(self, word: str) -> set[str]:
        """Lemmas WordNet names as opposites of any sense of ``word``."""
        return {a for p in POS for lem in self.lemmas(word, p) for a in self.entry(lem, p).antonyms}


_LOADED: list[WordNet] = []
_LOADING = threading.Lock()  # finds run on worker threads: two first weak queries open it once


def load() -> WordNet:
    """The shipped table, decompressed on the first call (once per process)."""
    if not _LOADED:
        with _LOADING:
            if not _LOADED:
                _LOADED.append(WordNet.from_file(TABLE_PATH))
    return _LOADED[0]
