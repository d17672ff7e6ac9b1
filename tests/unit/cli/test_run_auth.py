"""The cookies of `pinchtab audit|compare|scrape --cookie/--cookies-file` (PinchTab's run authentication)."""

from __future__ import annotations

import json
from pathlib import Path

import click
import pytest

from pinchtab.commands.run_auth import cookies_of


def test_flags_then_file_entries(tmp_path: Path) -> None:
    file = tmp_path / "cookies.json"
    file.write_text(json.dumps([{"name": "sid", "value": "x=1", "domain": "example.com", "httpOnly": True}]))
    assert cookies_of(("a=b", " c =d=e"), file) == [
        {"name": "a", "value": "b"}, {"name": "c", "value": "d=e"},
        {"name": "sid", "value": "x=1", "domain": "example.com", "httpOnly": True}]
    assert cookies_of((), None) == []


@pytest.mark.parametrize("flag", ["novalue", "=v", "name="])
def test_a_flag_needs_a_name_and_a_value(flag: str) -> None:
    with pytest.raises(click.BadParameter, match="expected name=value"):
        cookies_of((flag,), None)


@pytest.mark.parametrize(("text", "says"), [("{", "expected a JSON array"), ('{"name": "a"}', "expected a JSON array"),
                                            ('[{"name": "a", "value": ""}]', "entry 0 needs a name and a value")])
def test_a_bad_cookies_file_says_what_is_wrong(tmp_path: Path, text: str, says: str) -> None:
    file = tmp_path / "c.json"
    file.write_text(text)
    with pytest.raises(click.BadParameter, match=says):
        cookies_of((), file)
