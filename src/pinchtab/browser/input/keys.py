"""Key definitions for Input.dispatchKeyEvent: named keys, characters, and combos like Control+a."""

from __future__ import annotations

from dataclasses import dataclass

from pinchtab.errors import BadRequest


@dataclass(frozen=True)
class KeyDef:
    key: str
    code: str
    key_code: int
    text: str = ""


NAMED: dict[str, KeyDef] = {
    "Enter": KeyDef("Enter", "Enter", 13, "\r"),
    "Tab": KeyDef("Tab", "Tab", 9),
    "Escape": KeyDef("Escape", "Escape", 27),
    "Backspace": KeyDef("Backspace", "Backspace", 8),
    "Delete": KeyDef("Delete", "Delete", 46),
    "Space": KeyDef(" ", "Space", 32, " "),
    "ArrowUp": KeyDef("ArrowUp", "ArrowUp", 38),
    "ArrowDown": KeyDef("ArrowDown", "ArrowDown", 40),
    "ArrowLeft": KeyDef("ArrowLeft", "ArrowLeft", 37),
    "ArrowRight": KeyDef("ArrowRight", "ArrowRight", 39),
    "Home": KeyDef("Home", "Home", 36),
    "End": KeyDef("End", "End", 35),
    "PageUp": KeyDef("PageUp", "PageUp", 33),
    "PageDown": KeyDef("PageDown", "PageDown", 34),
    "Insert": KeyDef("Insert", "Insert", 45),
    "Shift": KeyDef("Shift", "ShiftLeft", 16),
    "Control": KeyDef("Control", "ControlLeft", 17),
    "Alt": KeyDef("Alt", "AltLeft", 18),
    "Meta": KeyDef("Meta", "MetaLeft", 91),
    **{f"F{i}": KeyDef(f"F{i}", f"F{i}", 111 + i) for i in range(1, 13)},
}

ALIASES = {
    "return": "Enter", "esc": "Escape", "del": "Delete", "up": "ArrowUp", "down": "ArrowDown",
    "left": "ArrowLeft", "right": "ArrowRight", "space": "Space", " ": "Space", "pgup": "PageUp",
    "pgdn": "PageDown", "ctrl": "Control", "control": "Control", "cmd": "Meta", "meta": "Meta",
    "option": "Alt", "alt": "Alt", "shift": "Shift",
}
_LOWER = {name.lower(): name for name in NAMED}

# CDP modifier bits
MODIFIER_BITS = {"Alt": 1, "Control": 2, "Meta": 4, "Shift": 8}

_SHIFTED = {
    "!": "1", "@": "2", "#": "3", "$": "4", "%": "5", "^": "6", "&": "7", "*": "8", "(": "9", ")": "0",
    "_": "-", "+": "=", "{": "[", "}": "]", "|": "\\", ":": ";", '"': "'", "<": ",", ">": ".", "?": "/", "~": "`",
}
_PUNCT_CODES = {
    "-": ("Minus", 189), "=": ("Equal", 187), "[": ("BracketLeft", 219), "]": ("BracketRight", 221),
    "\\": ("Backslash", 220), ";": ("Semicolon", 186), "'": ("Quote", 222), ",": ("Comma", 188),
    ".": ("Period", 190), "/": ("Slash", 191), "`": ("Backquote", 192),
}


def char_key(ch: str) -> KeyDef:
    """The key that types ``ch`` on a US layout (other characters get no code, only text)."""
    if ch == "\n":
        return NAMED["Enter"]
    if ch == "\t":
        return NAMED["Tab"]
    if ch == " ":
        return NAMED["Space"]
    if ch.isascii() and ch.isalpha():
        return KeyDef(ch, f"Key{ch.upper()}", ord(ch.upper()), ch)
    if ch.isascii() and ch.isdigit():
        return KeyDef(ch, f"Digit{ch}", ord(ch), ch)
    base = _SHIFTED.get(ch, ch)
    if base in _PUNCT_CODES:
        code, key_code = _PUNCT_CODES[base]
        return KeyDef(ch, code, key_code, ch)
    if base.isdigit():
        return KeyDef(ch, f"Digit{base}", ord(base), ch)
    return KeyDef(ch, "", 0, ch)


def named_key(name: str) -> KeyDef:
    if name in NAMED:
        return NAMED[name]
    canonical = ALIASES.get(name.lower()) or _LOWER.get(name.lower())
    if canonical:
        return NAMED[canonical]
    if len(name) == 1:
        return char_key(name)
    raise BadRequest(
        f"unknown key {name!r}: use a character or one of Enter, Tab, Escape, Backspace, Delete, "
        "ArrowUp/Down/Left/Right, Home, End, PageUp, PageDown, Space, F1-F12, with modifiers like Control+a",
        "unknown_key",
    )


def parse_combo(combo: str) -> tuple[KeyDef, int]:
    """``Control+Shift+a`` -> (key a, modifier bits). A lone ``+`` is the plus key."""
    if not combo:
        raise BadRequest("key is required for press", "missing_key")
    if combo == "+" or "+" not in combo:
        return named_key(combo), 0
    *mods, last = combo.split("+")
    if last == "":  # "Control++"
        last = "+"
        mods = mods[:-1]
    bits = 0
    for mod in mods:
        canonical = named_key(mod).key
        if canonical not in MODIFIER_BITS:
            raise BadRequest(f"{mod!r} is not a modifier (use Control, Shift, Alt or Meta)", "unknown_key")
        bits |= MODIFIER_BITS[canonical]
    return named_key(last), bits


def key_events(key: KeyDef, modifiers: int = 0) -> list[dict[str, object]]:
    """The keyDown/keyUp pair for one key press."""
    down: dict[str, object] = {
        "type": "keyDown" if key.text and not modifiers & (2 | 4) else "rawKeyDown",
        "key": key.key,
        "code": key.code,
        "windowsVirtualKeyCode": key.key_code,
        "nativeVirtualKeyCode": key.key_code,
        "modifiers": modifiers,
    }
    if down["type"] == "keyDown":
        down["text"] = key.text
        down["unmodifiedText"] = key.text
    up = {"type": "keyUp", "key": key.key, "code": key.code, "windowsVirtualKeyCode": key.key_code,
          "nativeVirtualKeyCode": key.key_code, "modifiers": modifiers}
    return [down, up]
