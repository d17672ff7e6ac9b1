"""``server.defaultInProcess``: which servers serve their default instance's bridge themselves."""

from __future__ import annotations

import pytest

from pinchtab.config import load_config
from pinchtab.errors import PinchtabError
from pinchtab.server.boot import default_in_process


@pytest.mark.parametrize(("setting", "autostarted", "expected"), [
    ("auto", True, True), ("auto", False, False), ("on", False, True), ("on", True, True),
    ("off", True, False), ("off", False, False),
])
def test_setting_and_autostart(setting: str, autostarted: bool, expected: bool) -> None:
    config = load_config({"server": {"defaultInProcess": setting}}, environ={})
    assert default_in_process(config, autostarted) is expected


def test_default_is_auto_and_the_env_var_sets_it() -> None:
    assert load_config({}, environ={}).server.default_in_process == "auto"
    assert load_config({}, environ={"PINCHTAB_DEFAULT_IN_PROCESS": "on"}).server.default_in_process == "on"


def test_a_wrong_value_is_a_config_error() -> None:
    with pytest.raises(PinchtabError):
        load_config({"server": {"defaultInProcess": "yes"}}, environ={})
