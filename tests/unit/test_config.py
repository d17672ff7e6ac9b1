"""Configuration: file, then environment, then overrides (no browser)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pinchtab.config import DEFAULT_PORT, Config, load_config
from pinchtab.errors import BadRequest


def write(path: Path, data: object) -> Path:
    path.write_text(json.dumps(data))
    return path


@pytest.fixture()
def no_home_file(tmp_path: Path) -> dict[str, str]:
    """An environment whose default config path does not exist (the real ~/.pinchtab is not read)."""
    return {"PINCHTAB_CONFIG": str(tmp_path / "absent.json")}


def test_defaults(no_home_file: dict[str, str]) -> None:
    cfg = load_config(environ=no_home_file)
    assert cfg.server.port == DEFAULT_PORT == 9867
    assert cfg.server.bind == "127.0.0.1"
    assert cfg.server.token is None
    assert cfg.security.allow_evaluate is False
    assert cfg.security.allow_cookies is False
    assert cfg.browser.headless is True
    assert cfg.browser.binary is None


def test_file_values_are_read(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {
        "server": {"port": 9999, "token": "file-token"},
        "security": {"allowEvaluate": True},
        "browser": {"binary": "/opt/chrome", "headless": False},
    })
    cfg = load_config(environ={}, path=path)
    assert cfg.server.port == 9999
    assert cfg.server.token == "file-token"
    assert cfg.security.allow_evaluate is True
    assert cfg.security.allow_cookies is False
    assert cfg.browser.binary == "/opt/chrome"
    assert cfg.browser.headless is False


def test_pinchtab_config_env_picks_the_file(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {"server": {"port": 9001}})
    assert load_config(environ={"PINCHTAB_CONFIG": str(path)}).server.port == 9001


def test_env_overrides_file_and_overrides_win(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {"server": {"port": 9001, "bind": "127.0.0.1", "token": "file"},
                                       "security": {"allowCookies": False}})
    env = {"PINCHTAB_PORT": "9002", "PINCHTAB_TOKEN": "env", "PINCHTAB_ALLOW_COOKIES": "yes"}
    cfg = load_config(environ=env, path=path)
    assert (cfg.server.port, cfg.server.token, cfg.security.allow_cookies) == (9002, "env", True)
    assert cfg.server.bind == "127.0.0.1"  # untouched by env
    cfg = load_config({"server": {"port": 9003, "token": None}}, environ=env, path=path)
    assert cfg.server.port == 9003
    assert cfg.server.token == "env"  # a None override (flag not given) does not erase the value


def test_overrides_merge_nested_sections(no_home_file: dict[str, str]) -> None:
    cfg = load_config({"security": {"allowEvaluate": True}, "browser": {"headless": False}}, environ=no_home_file)
    assert cfg.security.allow_evaluate is True
    assert cfg.security.allow_cookies is False
    assert cfg.browser.headless is False


@pytest.mark.parametrize(("value", "expected"), [("1", True), ("true", True), ("YES", True), ("on", True),
                                                 ("0", False), ("false", False), ("No", False), ("off", False)])
def test_env_booleans(no_home_file: dict[str, str], value: str, expected: bool) -> None:
    cfg = load_config(environ={**no_home_file, "PINCHTAB_ALLOW_EVALUATE": value, "PINCHTAB_HEADLESS": value})
    assert cfg.security.allow_evaluate is expected
    assert cfg.browser.headless is expected


def test_empty_env_var_is_ignored(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {"server": {"port": 9005}})
    assert load_config(environ={"PINCHTAB_PORT": ""}, path=path).server.port == 9005


@pytest.mark.parametrize(
    ("env", "mentions"),
    [
        ({"PINCHTAB_PORT": "abc"}, "PINCHTAB_PORT"),
        ({"PINCHTAB_PORT": "70000"}, "server.port"),
        ({"PINCHTAB_ALLOW_EVALUATE": "maybe"}, "PINCHTAB_ALLOW_EVALUATE"),
        ({"PINCHTAB_HEADLESS": "2"}, "PINCHTAB_HEADLESS"),
    ],
)
def test_bad_env_values_are_clear_errors(no_home_file: dict[str, str], env: dict[str, str], mentions: str) -> None:
    with pytest.raises(BadRequest) as info:
        load_config(environ={**no_home_file, **env})
    assert info.value.code == "bad_config"
    assert mentions in info.value.message


@pytest.mark.parametrize(
    ("data", "mentions"),
    [
        ({"server": {"port": 0}}, "server.port"),
        ({"server": {"port": "eighty"}}, "server.port"),
        ({"security": {"allowEvaluate": "sometimes"}}, "security.allowEvaluate"),
        ({"browser": {"navigationTimeoutMs": 5}}, "browser.navigationTimeoutMs"),
        ({"browser": {"extraArgs": "--foo"}}, "browser.extraArgs"),
        ({"server": "not an object"}, "server"),
    ],
)
def test_bad_file_values_are_clear_errors(tmp_path: Path, data: object, mentions: str) -> None:
    path = write(tmp_path / "c.json", data)
    with pytest.raises(BadRequest) as info:
        load_config(environ={}, path=path)
    assert info.value.code == "bad_config"
    assert mentions in info.value.message


def test_unreadable_config_files(tmp_path: Path) -> None:
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    with pytest.raises(BadRequest, match="broken.json") as info:
        load_config(environ={}, path=broken)
    assert info.value.code == "bad_config"
    listed = write(tmp_path / "list.json", [1, 2])
    with pytest.raises(BadRequest, match="JSON object"):
        load_config(environ={}, path=listed)
    with pytest.raises(BadRequest, match="does not exist"):
        load_config(environ={}, path=tmp_path / "missing.json")


def test_empty_file_means_defaults(tmp_path: Path) -> None:
    empty = tmp_path / "empty.json"
    empty.write_text("")
    assert load_config(environ={}, path=empty).server.port == DEFAULT_PORT


def test_unknown_keys_are_ignored(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {"server": {"port": 9010, "colour": "blue"}, "extra": {"x": 1}})
    assert load_config(environ={}, path=path).server.port == 9010


@pytest.mark.parametrize("bind", ["127.0.0.1", "localhost", "::1"])
def test_check_bind_allows_loopback_without_token(bind: str) -> None:
    Config.model_validate({"server": {"bind": bind}}).check_bind()


@pytest.mark.parametrize("bind", ["0.0.0.0", "192.168.1.10", "::", "example.com"])
def test_check_bind_refuses_other_addresses_without_token(bind: str) -> None:
    with pytest.raises(BadRequest) as info:
        Config.model_validate({"server": {"bind": bind}}).check_bind()
    assert info.value.code == "token_required"
    assert "token" in info.value.message
    Config.model_validate({"server": {"bind": bind, "token": "s3cret"}}).check_bind()


def test_empty_token_does_not_count(no_home_file: dict[str, str]) -> None:
    cfg = load_config({"server": {"bind": "0.0.0.0", "token": ""}}, environ=no_home_file)
    with pytest.raises(BadRequest):
        cfg.check_bind()


@pytest.mark.parametrize("token", [" ", "\t", " padded", "padded "])
def test_blank_or_padded_token_is_refused_on_any_bind(token: str) -> None:
    for bind in ("127.0.0.1", "0.0.0.0"):
        with pytest.raises(BadRequest) as info:
            Config.model_validate({"server": {"bind": bind, "token": token}}).check_bind()
        assert info.value.code == "bad_token"
