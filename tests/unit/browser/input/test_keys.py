"""Key definitions for Input.dispatchKeyEvent (no browser)."""

from __future__ import annotations

import pytest

from pinchtab.browser.input.keys import MODIFIER_BITS, NAMED, char_key, key_events, parse_combo
from pinchtab.errors import BadRequest


@pytest.mark.parametrize(
    ("combo", "key", "modifiers"),
    [
        ("Enter", "Enter", 0),
        ("Tab", "Tab", 0),
        ("Escape", "Escape", 0),
        ("esc", "Escape", 0),
        ("return", "Enter", 0),
        ("arrowdown", "ArrowDown", 0),
        ("down", "ArrowDown", 0),
        ("Backspace", "Backspace", 0),
        ("F5", "F5", 0),
        ("a", "a", 0),
        ("+", "+", 0),
        ("Control+a", "a", MODIFIER_BITS["Control"]),
        ("ctrl+A", "A", MODIFIER_BITS["Control"]),
        ("Control+Shift+Tab", "Tab", MODIFIER_BITS["Control"] | MODIFIER_BITS["Shift"]),
        ("Meta+Enter", "Enter", MODIFIER_BITS["Meta"]),
        ("Alt+ArrowLeft", "ArrowLeft", MODIFIER_BITS["Alt"]),
        ("Control++", "+", MODIFIER_BITS["Control"]),
    ],
)
def test_parse_combo(combo: str, key: str, modifiers: int) -> None:
    parsed, bits = parse_combo(combo)
    assert parsed.key == key
    assert bits == modifiers


def test_parse_combo_named_keys_carry_codes() -> None:
    enter, _ = parse_combo("Enter")
    assert (enter.code, enter.key_code, enter.text) == ("Enter", 13, "\r")
    down, _ = parse_combo("ArrowDown")
    assert (down.code, down.key_code, down.text) == ("ArrowDown", 40, "")


@pytest.mark.parametrize(("combo", "code"), [("", "missing_key"), ("Foo", "unknown_key"), ("a+b", "unknown_key"),
                                              ("Control+Bogus", "unknown_key"), ("Enter+a", "unknown_key")])
def test_parse_combo_errors(combo: str, code: str) -> None:
    with pytest.raises(BadRequest) as info:
        parse_combo(combo)
    assert info.value.code == code
    assert info.value.status == 400


@pytest.mark.parametrize(
    ("ch", "code", "key_code", "text"),
    [
        ("a", "KeyA", 65, "a"),
        ("Z", "KeyZ", 90, "Z"),
        ("7", "Digit7", 55, "7"),
        ("!", "Digit1", 49, "!"),
        ("@", "Digit2", 50, "@"),
        ("-", "Minus", 189, "-"),
        ("_", "Minus", 189, "_"),
        ("?", "Slash", 191, "?"),
        (".", "Period", 190, "."),
        (" ", "Space", 32, " "),
        ("\n", "Enter", 13, "\r"),
    ],
)
def test_char_key(ch: str, code: str, key_code: int, text: str) -> None:
    key = char_key(ch)
    assert (key.code, key.key_code, key.text) == (code, key_code, text)


def test_char_key_tab_and_non_ascii() -> None:
    assert char_key("\t") == NAMED["Tab"]
    accented = char_key("é")
    assert accented.key == "é" and accented.text == "é" and accented.code == ""
    emoji = char_key("🙂")
    assert emoji.text == "🙂"


def test_key_events_for_a_character() -> None:
    down, up = key_events(char_key("x"))
    assert down["type"] == "keyDown" and down["text"] == "x" and down["key"] == "x" and down["code"] == "KeyX"
    assert up["type"] == "keyUp" and up["key"] == "x" and "text" not in up


def test_key_events_for_a_named_key_without_text() -> None:
    down, up = key_events(NAMED["Tab"])
    assert down["type"] == "rawKeyDown" and "text" not in down
    assert down["windowsVirtualKeyCode"] == 9
    assert up["type"] == "keyUp"


def test_key_events_with_control_types_no_text() -> None:
    key, bits = parse_combo("Control+a")
    down, up = key_events(key, bits)
    # Control+a selects all; it must not also insert an "a"
    assert down["type"] == "rawKeyDown" and "text" not in down
    assert down["modifiers"] == up["modifiers"] == MODIFIER_BITS["Control"]


def test_key_events_with_shift_keep_text() -> None:
    key, bits = parse_combo("Shift+A")
    down, _ = key_events(key, bits)
    assert down["type"] == "keyDown" and down["text"] == "A"
