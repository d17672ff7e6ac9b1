"""GET and PUT /api/config: PinchTab's envelope, validation, the write-only token, the file written."""

from __future__ import annotations

import json
from pathlib import Path

from starlette.testclient import TestClient

from pinchtab.config import Config, load_config
from pinchtab.models.dashboard import ConfigUpdate
from pinchtab.dashboard.settings import redact
from pinchtab.server.app import create_app

TOKEN = "unit-test-token"


def client(tmp_path: Path, environ: dict[str, str] | None = None, **server: object) -> TestClient:
    config = load_config({"server": {"stateDir": str(tmp_path / "state"), **server}}, environ=environ or {})
    return TestClient(create_app(config, default_instance=False), base_url="http://127.0.0.1")


def test_put_writes_the_state_dirs_file_and_answers_like_get(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        before = c.get("/api/config").json()
        assert before["restartRequired"] is False and before["restartReasons"] == []
        assert before["config"]["browser"]["headless"] is True and before["tokenConfigured"] is False
        res = c.put("/api/config", json={"browser": {"headless": False}, "instances": {"restart": {"maxRestarts": 3}}})
        assert res.status_code == 200, res.text
        body = res.json()
        assert body["restartRequired"] is True
        assert body["restartReasons"] == ["browser.headless", "instances.restart.maxRestarts"]
        assert body["config"]["browser"]["headless"] is False and body["config"]["instances"]["restart"]["maxRestarts"] == 3
        assert body == c.get("/api/config").json()
        path = tmp_path / "state" / "config.json"
        assert body["configPath"] == str(path)
        # Only the keys changed are written: the environment's and the defaults stay out of the file.
        assert json.loads(path.read_text()) == {"browser": {"headless": False}, "instances": {"restart": {"maxRestarts": 3}}}
        assert load_config(path=path).browser.headless is False


def test_the_token_is_write_only(tmp_path: Path) -> None:
    file = tmp_path / "mine.json"
    file.write_text(json.dumps({"browser": {"headless": False}}))
    with client(tmp_path, {"PINCHTAB_CONFIG": str(file)}) as c:
        body = c.put("/api/config", json={"server": {"token": "a-new-long-token"}}).json()
        assert body["tokenConfigured"] is True and body["config"]["server"]["tokenSet"] is True
        assert "a-new-long-token" not in json.dumps(body) and "a-new-long-token" not in c.get("/api/config").text
        assert body["configPath"] == str(file) and body["restartReasons"] == ["server.token"]
        saved = json.loads(file.read_text())
        assert saved == {"browser": {"headless": False}, "server": {"token": "a-new-long-token"}}
        # GET's config sent back unchanged (tokenSet included) keeps the token: an empty field keeps it too.
        echoed = c.put("/api/config", json=c.get("/api/config").json()["config"])
        assert echoed.status_code == 200, echoed.text
        c.put("/api/config", json={"server": {"token": ""}})
        assert json.loads(file.read_text())["server"]["token"] == "a-new-long-token"
        assert c.put("/api/config", json={"server": {"token": "  spaced "}}).status_code == 400


def test_bad_keys_and_values_answer_400_naming_the_key(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        res = c.put("/api/config", json={"browser": {"headles": False}})
        assert res.status_code == 400 and "browser.headles" in res.json()["error"] and "browser.headless" in res.json()["error"]
        res = c.put("/api/config", json={"instances": {"stopGraceSec": "many"}})
        assert res.status_code == 400 and "instances.stopGraceSec" in res.json()["error"]
        assert c.put("/api/config", json={"nope": 1}).status_code == 400
        assert not (tmp_path / "state" / "config.json").exists()
        assert c.get("/api/config").json()["restartRequired"] is False


def test_put_is_guarded_by_the_token(tmp_path: Path) -> None:
    with client(tmp_path, token=TOKEN) as c:
        assert c.put("/api/config", json={"browser": {"headless": False}}).status_code == 401
        res = c.put("/api/config", json={"browser": {"headless": False}}, headers={"Authorization": f"Bearer {TOKEN}"})
        assert res.status_code == 200 and res.json()["tokenConfigured"] is True
        made = c.post("/sessions", json={"agentId": "bosch"}, headers={"Authorization": f"Bearer {TOKEN}"}).json()
        as_session = {"Authorization": f"Session {made['sessionToken']}"}
        res = c.put("/api/config", json={"security": {"allowEvaluate": True}}, headers=as_session)
        assert res.status_code == 403 and res.json()["code"] == "session_forbidden"


def test_secrets_and_the_state_key_are_never_shown() -> None:
    shown = redact({"security": {"secrets": {"pw": "hunter22hunter"}, "stateEncryptionKey": "k" * 20},
                    "server": {"token": None}})
    assert shown == {"security": {"secretsSet": True, "stateEncryptionKeySet": True}, "server": {"tokenSet": False}}


def test_the_update_model_names_every_section_of_the_config() -> None:
    assert [f.alias for f in ConfigUpdate.model_fields.values()] == [
        f.alias for f in Config.model_fields.values()]
