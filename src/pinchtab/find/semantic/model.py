"""Semantic similarity for ``find`` from a static token table distilled from all-MiniLM-L6-v2.

The hashing embedder only knows words that share letters or a hand-written concept; a query
such as "make it louder" for a "Volume" slider shares neither. A sentence model knows such
pairs, but running a transformer over every element of a 1,000-element page costs seconds.
So the model is run once, over its own vocabulary (each word piece alone, mean-pooled, as
model2vec does), the vectors are reduced by PCA and weighted by rank (frequent pieces weigh
less), and the table is cached under the state dir. A text's vector is then the mean of its
pieces' rows: microseconds per text, cached per text.

Off by default (measured: see the README's find section). ``PINCHTAB_FIND_SEMANTIC=1`` turns it
on: the weights must come from an installed package (``minilm.find_model_files``; a missing
one is an error), the table is distilled in the background on first use when
``scripts/bootstrap.sh --semantic`` has not done it yet. ``auto`` uses it only when that set-up step has run (weights installed,
table distilled). The config key ``find.semantic`` (the bridge calls ``configure``) wins over
the environment. Nothing is fetched at run time.
"""

from __future__ import annotations

import hashlib
import logging
import os
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:  # the model code is imported when the tier is used, not with find
    from . import minilm

__all__ = ["StaticModel", "distil", "get_model", "table_path", "enabled_setting"]

DIM = 256
TABLE_VERSION = 1
TEXT_CACHE_MAX = 50_000
_ENV = "PINCHTAB_FIND_SEMANTIC"
_LOCK = threading.Lock()
_MODEL: list = []  # [StaticModel | None] once resolved
_BUILDING: list[threading.Thread] = []


_CONFIGURED: dict[str, str] = {}


def configure(setting: str | None = None, state: str | os.PathLike | None = None) -> None:
    """Take the setting (config ``find.semantic``) and the state dir from the configuration
    (the bridge does, at start); without it the environment decides. "on" without an installed
    weights package is an error here, at start, rather than at the first find."""
    if setting == "on":
        from . import minilm

        if minilm.find_model_files() is None:
            raise RuntimeError("find.semantic is on but no package with all-MiniLM-L6-v2 weights is installed "
                               "(scripts/bootstrap.sh --semantic installs one)")
    with _LOCK:
        _CONFIGURED.clear()
        if setting is not None:
            _CONFIGURED["setting"] = setting
        if state is not None:
            _CONFIGURED["state"] = str(state)
        _MODEL.clear()


def enabled_setting() -> str:
    """"off" (default), "on" (required) or "auto" (used when a weights package is installed)."""
    v = _CONFIGURED.get("setting") or os.environ.get(_ENV, "off")
    v = v.strip().lower()
    if v in ("0", "off", "false", "no"):
        return "off"
    if v in ("1", "on", "true", "yes"):
        return "on"
    return "auto" if v == "auto" else "off"


def state_dir() -> Path:
    return Path(_CONFIGURED.get("state") or os.environ.get("PINCHTAB_STATE_DIR") or Path.home() / ".pinchtab").expanduser()


def table_path(files: minilm.ModelFiles | None = None, base: Path | None = None) -> Path:
    src = files.source if files else "none"
    return (base or state_dir()) / "find" / f"minilm-static-{src}-d{DIM}-v{TABLE_VERSION}.npz"


def distil(model: minilm.MiniLM, dim: int = DIM, batch: int = 512) -> tuple[np.ndarray, np.ndarray]:
    """(table ``(vocab, dim)`` float16, weights ``(vocab,)``): every word piece through the model
    alone, mean-pooled, PCA to ``dim``, rows normalised; weights fall with the piece's rank."""
    tok = model.tokenizer
    n = len(tok.vocab)
    out = np.zeros((n, 384), dtype=np.float32)
    ids = list(range(n))
    for i in range(0, n, batch):
        chunk = ids[i : i + batch]
        out[i : i + len(chunk)] = model.encode_ids([[t] for t in chunk])
    mean = out.mean(0)
    centred = out - mean
    # PCA by the covariance's eigenvectors (384 x 384: cheap)
    cov = centred.T @ centred / n
    vals, vecs = np.linalg.eigh(cov)
    top = vecs[:, np.argsort(-vals)[:dim]]
    red = centred @ top
    red /= np.maximum(np.linalg.norm(red, axis=1, keepdims=True), 1e-9)
    # BERT's vocabulary is roughly in frequency order after the special and single-character
    # pieces: a smooth inverse-frequency (SIF) weight from a Zipf estimate of the rank
    rank = np.arange(1, n + 1, dtype=np.float64)
    p = 1.0 / (rank * np.log(1.78 * n))
    sif = 1e-4 / (1e-4 + p)
    weights = sif.astype(np.float32)
    for t, i in tok.vocab.items():
        if t.startswith("[") and t.endswith("]"):
            weights[i] = 0.0
    return red.astype(np.float16), weights


@dataclass
class StaticModel:
    """A distilled token table and the tokenizer that indexes it."""

    table: np.ndarray      # (vocab, dim) float16
    weights: np.ndarray    # (vocab,) float32
    tokenizer: minilm.WordPiece
    source: str

    def __post_init__(self) -> None:
        self.dim = int(self.table.shape[1])
        self._cache: dict[str, np.ndarray] = {}
        self._word: dict[str, tuple[tuple[int, ...], tuple[float, ...]]] = {}

    def _coefs(self, text: str) -> tuple[list[int], list[float]]:
        """Token ids of a text and each one's share: its rank weight over its word's piece count."""
        ids: list[int] = []
        coefs: list[float] = []
        cache = self._word
        for w in self.tokenizer.words(text):
            wc = cache.get(w)
            if wc is None:
                wids = self.tokenizer.word_ids(w)
                k = float(len(wids))
                wc = (wids, tuple(float(self.weights[i]) / k for i in wids))
                if len(cache) > 200_000:
                    cache.clear()
                cache[w] = wc
            ids.extend(wc[0])
            coefs.extend(wc[1])
        return ids, coefs

    def embed(self, text: str) -> np.ndarray:
        """L2-normalised vector of a text (zeros when it has no known piece); cached per text."""
        v = self._cache.get(text)
        if v is None:
            self.embed_many([text])
            v = self._cache.get(text)
        return v

    def embed_many(self, texts: list[str]) -> np.ndarray:
        """Vectors of ``texts`` (rows), the uncached ones computed together and cached."""
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        todo: dict[str, list[int]] = {}
        for r, t in enumerate(texts):
            v = self._cache.get(t)
            if v is not None:
                out[r] = v
            else:
                todo.setdefault(t, []).append(r)
        if not todo:
            return out
        ids: list[int] = []
        coefs: list[float] = []
        starts: list[int] = []
        keys = list(todo)
        for t in keys:
            starts.append(len(ids))
            i, c = self._coefs(t)
            ids.extend(i)
            coefs.extend(c)
        vecs = np.zeros((len(keys), self.dim), dtype=np.float32)
        if ids:
            rows = self.table[np.asarray(ids, dtype=np.int64)].astype(np.float32)
            rows *= np.asarray(coefs, dtype=np.float32)[:, None]
            st = np.asarray(starts, dtype=np.int64)
            lens = np.diff(np.append(st, len(ids)))
            nz = lens > 0
            vecs[nz] = np.add.reduceat(rows, st[nz], axis=0)
            norms = np.linalg.norm(vecs, axis=1)
            ok = norms > 0
            vecs[ok] /= norms[ok, None]
            vecs[~ok] = 0.0
        if len(self._cache) + len(keys) > TEXT_CACHE_MAX:
            self._cache.clear()
        for k, t in enumerate(keys):
            v = vecs[k].copy()  # not a view: a cached row must not keep the whole batch alive
            self._cache[t] = v
            out[todo[t]] = v
        return out


def load_table(path: Path, files: minilm.ModelFiles) -> StaticModel:
    from . import minilm

    with np.load(path) as z:
        table, weights = z["table"], z["weights"]
    tok = minilm.WordPiece(files.read("vocab.txt").decode("utf-8"))
    return StaticModel(table, weights, tok, files.source)


def build_table(files: minilm.ModelFiles, path: Path) -> float:
    """Distil and write the table (atomically); returns the seconds it took."""
    from . import minilm

    t0 = time.perf_counter()
    model = minilm.MiniLM(files)
    table, weights = distil(model)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(f".{os.getpid()}.tmp.npz")
    np.savez(tmp, table=table, weights=weights,
             vocab_sha=np.frombuffer(hashlib.sha256(files.read("vocab.txt")).digest(), dtype=np.uint8))
    os.replace(tmp, path)
    return time.perf_counter() - t0


def get_model(*, build: bool = True) -> StaticModel | None:
    """The static model, or None when semantic matching is off, no weights are installed, or
    (setting "on") its table is still being distilled.

    With "on" and no table yet, the table is distilled in a background thread (about two
    minutes, once) and the tier stays out of the way until it is there: no find waits for it.
    ``scripts/bootstrap.sh --semantic`` distils it at set-up instead. "auto" never distils.
    """
    if _MODEL:
        return _MODEL[0]
    with _LOCK:
        if _MODEL:
            return _MODEL[0]
        setting = enabled_setting()
        if setting == "off":
            _MODEL.append(None)
            return None
        from . import minilm

        files = minilm.find_model_files()
        if files is None:
            if setting == "on":
                raise RuntimeError(f"find.semantic is on but no package with all-MiniLM-L6-v2 weights is "
                                   "installed (scripts/bootstrap.sh --semantic installs one)")
            _MODEL.append(None)
            return None
        path = table_path(files)
        if path.exists():
            model = load_table(path, files)
            _MODEL.append(model)
            return model
        if setting == "on":
            if build and not _BUILDING:
                t = threading.Thread(target=_build_quietly, args=(files, path), name="pinchtab-find-distil",
                                     daemon=True)
                _BUILDING.append(t)
                t.start()
            return None  # not cached: picked up once the table exists
        _MODEL.append(None)
        return None


def _build_quietly(files, path: Path) -> None:
    try:
        build_table(files, path)
    except Exception:  # noqa: BLE001 - a failed distillation leaves the tier off, the reason logged
        logging.getLogger(__name__).exception("distilling the MiniLM table into %s failed", path)


def wait_for_table(timeout: float | None = None) -> bool:
    """Wait for a background distillation started by ``get_model``; True when none is running."""
    for t in list(_BUILDING):
        t.join(timeout)
    return not any(t.is_alive() for t in _BUILDING)


def reset() -> None:
    """Forget the loaded model (tests, a changed setting)."""
    with _LOCK:
        _MODEL.clear()


def main(argv: list[str] | None = None) -> int:
    """``python -c "from pinchtab.find.semantic.model import main; main([])"``: distil the table now (set-up step)."""
    import argparse

    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("--force", action="store_true", help="rebuild even when the table exists")
    args = ap.parse_args(argv)
    from . import minilm

    files = minilm.find_model_files()
    if files is None:
        print("no package with all-MiniLM-L6-v2 weights is installed; semantic find stays off")
        return 1
    path = table_path(files)
    if path.exists() and not args.force:
        print(f"table present: {path}")
        return 0
    secs = build_table(files, path)
    print(f"distilled {path} from {files.source} in {secs:.1f} s ({path.stat().st_size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
