"""Queries reworded in the page's words through WordNet (find.text.wordnet, find.text.paraphrase),
on a small WordNet database written here in WordNet's own file format and made into a table by
scripts/build_wordnet_table.py, and on the table find ships."""

import gzip
import importlib.util
import sys
from pathlib import Path

import pytest

from pinchtab.find import ElementIndex
from pinchtab.find.index.descriptors import build_descriptors
from pinchtab.find.text import paraphrase, wordnet

ROOT = Path(__file__).resolve().parents[4]


def _build_script():
    spec = importlib.util.spec_from_file_location("build_wordnet_table", ROOT / "scripts" / "build_wordnet_table.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # dataclasses and friends look their module up
    spec.loader.exec_module(mod)
    return mod


build = _build_script()

# synset id -> (pos, lemmas, pointers (symbol, target id)); the first lemma's senses are listed
# in this order in the index, so "perk"'s first sense is p1
SYNSETS = {
    "p1": ("n", ["perk", "perquisite", "fringe_benefit"], [("@", "b1")]),
    "b1": ("n", ["benefit"], []),
    "e1": ("n", ["electricity", "electrical_energy"], [("@", "en")]),
    "en": ("n", ["energy"], []),
    "u1": ("n", ["upgrade"], [("!", "d1"), ("@", "d1")]),
    "d1": ("n", ["downgrade"], [("!", "u1")]),
    "g1": ("v", ["go", "leave"], []),
    "c1": ("v", ["collect", "pray"], []),  # "pray" is collect's rare third sense, below
    "c2": ("v", ["collect", "gather"], []),
    "c3": ("v", ["collect", "accumulate"], []),
    "dt": ("n", ["date"], [("@", "tp")]),
    "tp": ("n", ["time_period", "period"], []),
    "bi": ("n", ["birth"], [("@", "bg")]),
    "bg": ("n", ["beginning", "start"], []),
    "gs": ("n", ["goose"], [("@", "bd")]),
    "bd": ("n", ["bird"], []),
}
SENSE_ORDER = {"collect": ["c2", "c3", "c1"]}  # most frequent first
HEADER = "  1 This software and database is being provided to you, the LICENSEE, by Princeton University\n"
NAMES = {"n": "noun", "v": "verb", "a": "adj", "r": "adv"}


def write_wordnet(root: Path, newline: str = "\n") -> Path:
    """The synsets above as WordNet 3.0 index.*, data.* and *.exc files."""
    root.mkdir(parents=True, exist_ok=True)
    offsets: dict[str, int] = {}
    lines: dict[str, dict[str, str]] = {p: {} for p in NAMES}
    for _ in range(2):  # every field is fixed-width: the second pass has the final offsets
        pos_at = {p: len(HEADER) for p in NAMES}
        for sid, (p, words, ptrs) in SYNSETS.items():
            offsets[sid] = pos_at[p]
            ws = " ".join(f"{w} 0" for w in words)
            ps = " ".join(f"{sym} {offsets.get(t, 0):08d} {SYNSETS[t][0]} 0000" for sym, t in ptrs)
            line = f"{pos_at[p]:08d} 03 {p} {len(words):02x} {ws} {len(ptrs):03d}{' ' + ps if ps else ''} | gloss  "
            lines[p][sid] = line
            pos_at[p] += len(line) + 1  # offsets count LF line ends, as WordNet's do
    senses: dict[tuple[str, str], list[str]] = {}
    for sid, (p, words, _) in SYNSETS.items():
        for w in words:
            senses.setdefault((p, w), []).append(sid)
    for (p, w), sids in senses.items():
        order = SENSE_ORDER.get(w, sids)
        senses[(p, w)] = [s for s in order if s in sids]
    for p, name in NAMES.items():
        data = HEADER + "".join(line + "\n" for line in lines[p].values())
        (root / f"data.{name}").write_bytes(data.replace("\n", newline).encode())
        index = sorted(f"{w} {p} {len(s)} 0 {len(s)} 0 " + " ".join(f"{offsets[x]:08d}" for x in s)
                       for (pp, w), s in senses.items() if pp == p)
        (root / f"index.{name}").write_bytes((HEADER + "".join(i + "  \n" for i in index)).replace("\n", newline).encode())
        (root / f"{name}.exc").write_text("geese goose\n" if p == "n" else "")
    return root


def table_of(db_dir: Path) -> wordnet.WordNet:
    lines = build.table_lines(build.Database(db_dir))
    return wordnet.WordNet(("\n".join(lines) + "\n").encode())


@pytest.fixture(params=["\n", "\r\n"], ids=["lf", "crlf"])
def wn(tmp_path, request, monkeypatch):
    db = table_of(write_wordnet(tmp_path / "wordnet-3.0", request.param))
    monkeypatch.setattr(wordnet, "_LOADED", [db])
    return db


def test_lookups_by_bisection(wn):
    assert wn.lemmas("perks", "n") == ("perk",)
    assert wn.lemmas("going", "v") == ("go",)
    assert wn.lemmas("geese", "n") == ("goose",)  # an exception list's inflection
    assert wn.lemmas("zebra", "n") == ()
    related = {(r.lemma, r.kind) for r in wn.related("perks")}
    assert {("perquisite", "syn"), ("fringe_benefit", "syn"), ("benefit", "hyper")} <= related
    assert wn.antonyms("upgrade") == {"downgrade"}
    assert wn.related("aardvark") == [] and wn.antonyms("aardvark") == set()


def test_rare_senses_are_not_related(wn):
    # "pray" is collect's third sense, "gather" its first
    lemmas = {r.lemma for r in wn.related("collect")}
    assert "gather" in lemmas and "pray" not in lemmas


def test_every_line_is_found_by_bisection(wn):
    keys = [line.split(b"\t", 1)[0] for line in wn.blob.splitlines()]
    assert keys == sorted(keys) and len(keys) > 10
    for k in keys:
        assert wordnet._line(wn.blob, k).split(b"\t", 1)[0] == k
    for missing in (b"", b"a", b"aardvark.n", b"perk.v", b"zzz.n", keys[-1] + b"x"):
        assert wordnet._line(wn.blob, missing) is None


def test_long_lemmas_stay_out(tmp_path):
    SYNSETS["l1"] = ("n", ["acne", "disease_of_the_skin", "skin_disease"], [])
    try:
        wn = table_of(write_wordnet(tmp_path / "wordnet-3.0"))
    finally:
        del SYNSETS["l1"]
    assert [r.lemma for r in wn.related("acne")] == ["skin_disease"]  # four words are no wording of a query


def test_the_shipped_table(monkeypatch):
    # decompressed once, on first use, and small: what the wheel carries
    monkeypatch.setattr(wordnet, "_LOADED", [])
    assert wordnet.TABLE_PATH.stat().st_size < 3_000_000
    assert (wordnet.TABLE_PATH.parent / "wordnet-3.0-LICENSE.txt").read_text().startswith("WordNet Release 3.0")
    wn = wordnet.load()
    assert wordnet.load() is wn and len(wn.blob) == len(gzip.decompress(wordnet.TABLE_PATH.read_bytes()))
    assert {("fringe_benefit", "syn"), ("benefit", "hyper")} <= {(r.lemma, r.kind) for r in wn.related("perks")}
    assert "downgrade" in wn.antonyms("upgrade") and wn.lemmas("geese", "n") == ("goose",)
    assert wn.related("qwxz") == [] and wn.antonyms("qwxz") == set()
    # find uses it with no extra installed
    assert ElementIndex(PAGE).find("perks")["best_ref"] == "e0"


PAGE = [
    {"ref": "e0", "role": "link", "name": "Benefits"},
    {"ref": "e1", "role": "link", "name": "Energy usage"},
    {"ref": "e2", "role": "button", "name": "Leaving home"},
    {"ref": "e3", "role": "button", "name": "Downgrade plan"},
    {"ref": "e4", "role": "combobox", "name": "Notice period"},
    {"ref": "e5", "role": "button", "name": "Start"},
    {"ref": "e6", "role": "paragraph", "name": "Our electricity comes from the sun"},
]


def words_of(page):
    return paraphrase.page_words(build_descriptors(page), [e["role"] == "paragraph" for e in page])


def test_rewrite_uses_the_controls_words(wn):
    page = words_of(PAGE)
    rw = paraphrase.rewrite("perks", page)
    assert rw.text == "benefits" and rw.swaps == (("perks", "benefits"),)
    assert rw.factor == pytest.approx(paraphrase.STRENGTH["syn"] * paraphrase.HEAD_OF_COMPOUND)
    assert paraphrase.rewrite("i m going out", page).text == "i m leaving out"


def test_words_on_the_page_stay(wn):
    # "electricity" is in the paragraph: the page has the word, nothing to reword
    assert paraphrase.rewrite("electricity", words_of(PAGE)) is None
    assert paraphrase.rewrite("electricity", words_of(PAGE[:6])).text == "energy"


def test_an_opposite_never_stands_in(wn):
    # WordNet's upgrade is also a kind of "downgrade" here: the antonym wins
    assert paraphrase.rewrite("upgrade", words_of(PAGE)) is None


def test_two_loose_replacements_are_no_question(wn):
    # date -> "period", birth -> "start": both hypernyms
    assert paraphrase.rewrite("date of birth", words_of(PAGE)) is None
    assert paraphrase.rewrite("date", words_of(PAGE)).text == "period"


def test_find_answers_a_reworded_query_discounted(wn):
    idx = ElementIndex(PAGE)
    plain = idx.find("benefits")
    res = idx.find("perks", explain=True)
    assert res["best_ref"] == "e0" and res["reworded"] == "benefits"
    assert res["score"] == pytest.approx(plain["score"] * 0.9, abs=1e-3)
    assert res["matches"] and all(m["score"] >= 0.3 for m in res["matches"])  # discounted, still above
    assert idx.find("I'm going out")["best_ref"] == "e2"
    assert idx.find("upgrade")["best_ref"] == ""  # not the Downgrade button
    assert idx.find("book a hotel")["best_ref"] == ""


def test_a_strong_answer_is_not_reworded(wn):
    res = ElementIndex(PAGE).find("benefits", explain=True)
    assert res["best_ref"] == "e0" and "reworded" not in res


def test_only_weak_short_queries_are_reworded(wn):
    assert paraphrase.applies("perks", 0.0)
    assert not paraphrase.applies("perks", paraphrase.REWORD_BELOW)
    assert not paraphrase.applies(" ".join(["perks"] * (paraphrase.REWORD_MAX_WORDS + 1)), 0.0)


def test_the_table_is_opened_once_across_threads(monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    opened = []
    real = wordnet.WordNet.from_file
    monkeypatch.setattr(wordnet, "_LOADED", [])
    monkeypatch.setattr(wordnet.WordNet, "from_file", classmethod(lambda cls, p: opened.append(p) or real(p)))
    with ThreadPoolExecutor(4) as pool:
        tables = list(pool.map(lambda _: wordnet.load(), range(8)))
    assert len(opened) == 1 and all(t is tables[0] for t in tables)
