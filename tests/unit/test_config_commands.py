"""`pinchtab config init|show|schema` (no server, no browser)."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from pinchtab.cli import main
from pinchtab.config import load_config


def test_init_writes_a_loadable_file_and_does_not_overwrite(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "config.json"
    env = {"PINCHTAB_CONFIG": str(path)}
    result = CliRunner().invoke(main, ["config", "init"], env=env)
    assert result.exit_code == 0 and str(path) in result.stdout
    assert path.stat().st_mode & 0o777 == 0o600
    assert load_config(environ={}, path=path).server.port == 9867
    path.write_text('{"server": {"port": 9001}}')
    result = CliRunner().invoke(main, ["config", "init"], env=env)
    assert result.exit_code == 1 and "exists; pass --force" in result.stderr
    assert json.loads(path.read_text()) == {"server": {"port": 9001}}
    assert CliRunner().invoke(main, ["config", "init", "--force"], env=env).exit_code == 0
    assert json.loads(path.read_text())["server"]["port"] == 9867


def test_show_gives_values_sources_and_masks_tokens(tmp_path: Path) -> None:
    path = tmp_path / "config.json"
    path.write_text('{"server": {"port": 9001}, "discovery": {"token": "file-secret"}}')
    env = {"PINCHTAB_CONFIG": str(path), "PINCHTAB_TOKEN": "env-secret", "PINCHTAB_BROWSER_MAX_TABS": "7"}
    result = CliRunner().invoke(main, ["config", "show", "--json"], env=env)
    assert result.exit_code == 0
    shown = json.loads(result.stdout)
    assert shown["file"] == str(path)
    assert shown["config"]["server.port"] == 9001 and shown["config"]["browser.maxTabs"] == 7
    assert shown["config"]["server.token"] == shown["config"]["discovery.token"] == "***"
    assert "file-secret" not in result.stdout and "env-secret" not in result.stdout
    assert shown["sources"] == {"server.port": f"file {path}", "discovery.token": f"file {path}",
                                "server.token": "env PINCHTAB_TOKEN", "browser.maxTabs": "env PINCHTAB_BROWSER_MAX_TABS"}
    text = CliRunner().invoke(main, ["config", "show"], env=env).stdout
    assert f"server.port = 9001  (file {path})" in text
    assert "browser.headless = true  (default; env PINCHTAB_BROWSER_HEADLESS)" in text


def test_schema_is_the_models_json_schema(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["config", "schema"], env={"PINCHTAB_CONFIG": str(tmp_path / "none.json")})
    schema = json.loads(result.stdout)
    assert schema["title"] == "pinchtab config" and schema["additionalProperties"] is False
    assert set(schema["properties"]) == {"$schema", "server", "security", "browser", "find", "discovery", "observe",
                                         "recording", "instances", "mcp", "instanceDefaults", "observability", "sessions"}


def test_the_configuration_doc_lists_every_key_and_its_variables() -> None:
    from pinchtab.config import ENV_VARS

    doc = (Path(__file__).resolve().parents[2] / "docs" / "configuration.md").read_text()
    rows = {line.split("|")[1].strip(" `"): line for line in doc.splitlines() if line.startswith("| `")}
    for var, (path, _) in ENV_VARS.items():
        key = ".".join(path)
        assert key in rows, f"docs/configuration.md lacks {key}"
        assert f"`{var}`" in rows[key], f"docs/configuration.md: {key} lacks {var}"
    assert len(rows) == len({path for path, _ in ENV_VARS.values()})
