"""find's semantic tier through a real bridge: config key -> bridge -> POST /find (needs the
weights package and its distilled table: scripts/bootstrap.sh --semantic; skipped otherwise)."""

from __future__ import annotations

import os
from pathlib import Path

import httpx
import pytest

from pinchtab.find.semantic import minilm, model as semantic
from tests.conftest import ServerThread
from tests.fixtures.harness import free_port, serve

FRESH = Path(__file__).resolve().parents[1] / "fixtures" / "find_fresh"


def _table_dir() -> Path | None:
    files = minilm.find_model_files()
    if files is None:
        return None
    for base in (os.environ.get("PINCHTAB_STATE_DIR"), str(Path.home() / ".pinchtab")):
        if base and semantic.table_path(files, Path(base)).exists():
            return Path(base)
    return None


@pytest.mark.skipif(_table_dir() is None, reason="no distilled MiniLM table (scripts/bootstrap.sh --semantic)")
def test_semantic_rescue_through_the_bridge():
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    saved = dict(semantic._CONFIGURED)
    url, pages = serve(FRESH)
    config = load_config({"find": {"semantic": "on"}, "server": {"stateDir": str(_table_dir())}}, environ={})
    try:
        with ServerThread(create_app(config), free_port()) as bridge, httpx.Client(base_url=bridge.url, timeout=60) as http:
            tab = http.post("/tab", json={"action": "new"}).json()["tabId"]
            res = http.post(f"/tabs/{tab}/navigate", json={"url": f"{url}/job-application/index.html"})
            assert res.status_code == 200, res.text
            found = http.post(f"/tabs/{tab}/find", json={"query": "upload my CV", "topK": 1}).json()
            assert found["best_ref"] and found["confidence"] == "low"
            assert "Resume" in found["matches"][0]["name"]
            # a lexical match is untouched by the tier
            assert http.post(f"/tabs/{tab}/find", json={"query": "first name"}).json()["confidence"] != "low"
    finally:
        pages.shutdown()
        semantic.configure(saved.get("setting"), saved.get("state"))
