"""Configuration: file, then environment, then overrides (no browser)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pinchtab.config import (ALIASES, DEFAULT_PORT, ENV_VARS, Config, config_schema, load_config,
                             load_config_with_sources)
from pinchtab.errors import BadRequest


def _flatten(data: dict[str, object], prefix: str = "") -> dict[str, object]:
    out: dict[str, object] = {}
    for key, value in data.items():
        out.update(_flatten(value, f"{prefix}{key}.") if isinstance(value, dict) and value else {f"{prefix}{key}": value})
    return out


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


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"server": {"prot": 1234}}, "unknown config key server.prot in config file {file} (did you mean server.port?)"),
        ({"server": {"port": 9010, "colour": "blue"}}, "unknown config key server.colour in config file {file}"),
        ({"extra": {"x": 1}}, "unknown config key extra in config file {file}"),
        ({"secuirty": {}}, "unknown config key secuirty in config file {file} (did you mean security?)"),
        ({"browser": {"headles": True}}, "(did you mean browser.headless?)"),
        ({"browser": {"HEADLESS": True}}, "(did you mean browser.headless?)"),
        ({"security": {"attach": {"allowHost": ["x"]}}}, "security.attach.allowHost in config file {file} "
                                                         "(did you mean security.attach.allowHosts?)"),
        # In the wrong section: the key where it exists.
        ({"server": {"allowEvaluate": True}}, "(did you mean security.allowEvaluate?)"),
    ],
)
def test_unknown_keys_are_errors_that_name_the_closest_key(tmp_path: Path, data: object, message: str) -> None:
    path = write(tmp_path / "c.json", data)
    with pytest.raises(BadRequest) as info:
        load_config(environ={}, path=path)
    assert info.value.code == "bad_config"
    assert message.format(file=path) in info.value.message


def test_unknown_override_keys_are_errors(no_home_file: dict[str, str]) -> None:
    with pytest.raises(BadRequest, match=r"server\.prot in the overrides \(did you mean server\.port\?\)"):
        load_config({"server": {"prot": 1}}, environ=no_home_file)


def test_snake_case_keys_and_an_editor_schema_pointer_are_accepted(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {"$schema": "./config.schema.json", "server": {"state_dir": "/srv/pt"}})
    cfg, sources = load_config_with_sources(environ={"PINCHTAB_STATE_DIR": ""}, path=path)
    assert cfg.server.state_dir == "/srv/pt"
    assert sources == {"server.stateDir": f"file {path}"}


def test_pinchtab_spelling_of_the_network_keys_lands_on_ours(tmp_path: Path) -> None:
    # PinchTab's tests/e2e/config/pinchtab-network-retain-bodies.json puts these under server.
    path = write(tmp_path / "c.json", {"server": {"port": 9001, "retainNetworkBodies": True,
                                                  "retainNetworkBodyMaxBytes": 4096, "networkBufferSize": 200}})
    cfg, sources = load_config_with_sources(environ={}, path=path)
    assert (cfg.observe.retain_bodies, cfg.observe.retain_body_max_bytes, cfg.observe.network_buffer) == (True, 4096, 200)
    assert sources["observe.retainBodies"] == f"file {path}"
    both = write(tmp_path / "both.json", {"server": {"networkBufferSize": 200}, "observe": {"networkBuffer": 300}})
    assert load_config(environ={}, path=both).observe.network_buffer == 300


def test_every_key_has_an_environment_variable_by_the_rule(no_home_file: dict[str, str]) -> None:
    keys = [(".".join(path), var) for var, (path, _) in ENV_VARS.items() if var not in ALIASES]
    every_key = list(_flatten(Config().model_dump(by_alias=True)))
    assert sorted(path for path, _ in keys) == sorted(every_key)
    assert len(every_key) > 60
    assert ("server.stateDir", "PINCHTAB_SERVER_STATE_DIR") in keys
    assert ("security.attach.allowHosts", "PINCHTAB_SECURITY_ATTACH_ALLOW_HOSTS") in keys
    assert ("instances.restart.maxBackoffSec", "PINCHTAB_INSTANCES_RESTART_MAX_BACKOFF_SEC") in keys
    # Names the CLI and the deploy files use for other things are no config key's.
    assert not {"PINCHTAB_SERVER", "PINCHTAB_CONFIG", "PINCHTAB_MCP_TOKEN"} & set(ENV_VARS)
    env = {
        **no_home_file,
        "PINCHTAB_SERVER_MAX_PROFILES": "7",
        "PINCHTAB_SECURITY_ATTACH_ENABLED": "yes",
        "PINCHTAB_SECURITY_ATTACH_ALLOW_HOSTS": "a.example, b.example",
        "PINCHTAB_SECURITY_ALLOWED_SCHEMES": '["file", "data"]',
        "PINCHTAB_BROWSER_EXTRA_ARGS": '["--lang=fr,de"]',
        "PINCHTAB_INSTANCES_RESTART_MAX_BACKOFF_SEC": "2.5",
        "PINCHTAB_OBSERVE_ENABLED": "off",
        "PINCHTAB_DISCOVERY_SCHEME": "https",
    }
    cfg, sources = load_config_with_sources(environ=env)
    assert cfg.server.max_profiles == 7
    assert cfg.security.attach.enabled is True
    assert cfg.security.attach.allow_hosts == ["a.example", "b.example"]
    assert cfg.security.allowed_schemes == ["file", "data"]
    assert cfg.browser.extra_args == ["--lang=fr,de"]
    assert cfg.instances.restart.max_backoff_sec == 2.5
    assert cfg.observe.enabled is False
    assert cfg.discovery.scheme == "https"
    assert sources["security.attach.allowHosts"] == "env PINCHTAB_SECURITY_ATTACH_ALLOW_HOSTS"


# The 24 variables before the rule: PinchTab's names (19 aliases) and 5 the rule gives as well.
BEFORE_THE_RULE = [
    "PINCHTAB_PORT", "PINCHTAB_BIND", "PINCHTAB_TOKEN", "PINCHTAB_STATE_DIR", "PINCHTAB_DEFAULT_INSTANCE",
    "PINCHTAB_DEFAULT_IN_PROCESS", "PINCHTAB_ALLOW_EVALUATE", "PINCHTAB_ALLOW_COOKIES", "PINCHTAB_ALLOW_STATE_EXPORT",
    "PINCHTAB_ALLOW_NETWORK_INTERCEPT", "PINCHTAB_ALLOW_DOWNLOAD", "PINCHTAB_ALLOW_UPLOAD", "PINCHTAB_ALLOW_CLIPBOARD",
    "PINCHTAB_DOWNLOAD_ALLOWED_DOMAINS", "PINCHTAB_DIALOGS", "PINCHTAB_CHROME", "PINCHTAB_HEADLESS",
    "PINCHTAB_PROFILE_DIR", "PINCHTAB_CDP_URL", "PINCHTAB_FIND_SEMANTIC", "PINCHTAB_FIND_HEAP_PAD_MB",
    "PINCHTAB_DISCOVERY_DNS", "PINCHTAB_DISCOVERY_PORT", "PINCHTAB_DISCOVERY_TOKEN",
]


def test_the_pinchtab_names_are_aliases_and_win_over_the_rule(no_home_file: dict[str, str]) -> None:
    assert len(BEFORE_THE_RULE) == 24 and set(BEFORE_THE_RULE) <= set(ENV_VARS)
    assert len(ALIASES) == 19
    for var, path in ALIASES.items():
        assert ENV_VARS[var][0] == path
    env = {**no_home_file, "PINCHTAB_TOKEN": "alias", "PINCHTAB_SERVER_TOKEN": "rule",
           "PINCHTAB_CHROME": "/opt/c", "PINCHTAB_FIND_SEMANTIC": "1"}
    cfg, sources = load_config_with_sources(environ=env)
    assert (cfg.server.token, cfg.browser.binary, cfg.find.semantic) == ("alias", "/opt/c", "on")
    assert sources["server.token"] == "env PINCHTAB_TOKEN"


def test_a_bad_value_says_where_it_came_from(tmp_path: Path) -> None:
    with pytest.raises(BadRequest, match=r"server\.port \(from env PINCHTAB_SERVER_PORT\)"):
        load_config(environ={"PINCHTAB_SERVER_PORT": "70000"}, path=write(tmp_path / "c.json", {}))
    path = write(tmp_path / "d.json", {"browser": {"maxTabs": 0}})
    with pytest.raises(BadRequest, match=rf"browser\.maxTabs \(from file {path}\)"):
        load_config(environ={}, path=path)


def test_sources_name_file_env_and_command_line(tmp_path: Path) -> None:
    path = write(tmp_path / "c.json", {"server": {"port": 9001, "bind": "127.0.0.1"}})
    _, sources = load_config_with_sources({"server": {"bind": "localhost", "token": None}},
                                          environ={"PINCHTAB_PORT": "9002"}, path=path)
    assert sources == {"server.port": "env PINCHTAB_PORT", "server.bind": "command line"}


def test_schema_describes_the_model_and_refuses_unknown_keys() -> None:
    jsonschema = pytest.importorskip("jsonschema")
    schema = config_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"$schema": "x", "server": {"port": 9000}, "security": {"attach": {"enabled": True}}})
    assert not validator.is_valid({"server": {"prot": 9000}})
    assert not validator.is_valid({"server": {"port": 0}})
    assert schema["$defs"]["ServerConfig"]["properties"]["stateDir"]["type"] == "string"


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
