"""URL globs matched in time linear in the URL: a glob is compiled to a bit-parallel automaton (one
bit per pattern token, the whole state set advanced by a few integer operations per character).

A regular expression built from a glob backtracks: ``*a*a*a...*a b`` against a 3,000-character URL
kept a bridge's event loop busy for good. Here the cost is ``len(text)`` steps of ``len(pattern)/64``
machine words, whatever the pattern.
"""

from __future__ import annotations

from dataclasses import dataclass, field

_LITERAL, _ONE, _SEGMENT, _ANY = "c", "?", "*", "**"


@dataclass(frozen=True)
class Glob:
    """``?`` one character; ``*`` any run of characters, or with ``segment_star`` any run without a
    ``/`` (then ``**`` is any run). ``fullmatch`` matches the whole text, ``search`` a part of it."""

    pattern: str
    segment_star: bool = False
    _tokens: int = field(init=False, repr=False)
    _advance: dict[str, int] = field(init=False, repr=False)
    _advance_other: int = field(init=False, repr=False)
    _skip: int = field(init=False, repr=False)
    _stay_any: int = field(init=False, repr=False)
    _stay_segment: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        tokens = _tokenize(self.pattern, self.segment_star)
        bits = lambda kinds: sum(1 << j for j, (kind, _) in enumerate(tokens) if kind in kinds)  # noqa: E731
        one = bits((_ONE,))
        advance: dict[str, int] = {}
        for j, (kind, char) in enumerate(tokens):
            if kind == _LITERAL:
                advance[char] = advance.get(char, one) | (1 << j)
        set_ = object.__setattr__
        set_(self, "_tokens", len(tokens))
        set_(self, "_advance", advance)
        set_(self, "_advance_other", one)
        set_(self, "_skip", bits((_SEGMENT, _ANY)))
        set_(self, "_stay_any", bits((_ANY,)))
        set_(self, "_stay_segment", bits((_SEGMENT,)))

    def _closure(self, states: int) -> int:
        # A star may match nothing. Adjacent stars were merged, so one step reaches every state.
        return states | ((states & self._skip) << 1)

    def _step(self, states: int, char: str) -> int:
        stay = self._stay_any if char == "/" else self._stay_any | self._stay_segment
        moved = ((states & self._advance.get(char, self._advance_other)) << 1) | (states & stay)
        return self._closure(moved)

    def fullmatch(self, text: str) -> bool:
        accept = 1 << self._tokens
        states = self._closure(1)
        for char in text:
            states = self._step(states, char)
            if not states:
                return False
        return bool(states & accept)

    def search(self, text: str) -> bool:
        accept = 1 << self._tokens
        start = self._closure(1)
        states = start
        if states & accept:
            return True
        for char in text:
            states = self._step(states, char) | start
            if states & accept:
                return True
        return False


def _tokenize(pattern: str, segment_star: bool) -> list[tuple[str, str]]:
    tokens: list[tuple[str, str]] = []
    i = 0
    while i < len(pattern):
        char = pattern[i]
        if char == "*":
            double = segment_star and pattern.startswith("**", i)
            kind = _ANY if double or not segment_star else _SEGMENT
            i += 2 if double else 1
            last = tokens[-1][0] if tokens else None
            if last == _ANY:
                continue
            if last == _SEGMENT:
                tokens[-1] = (_ANY if kind == _ANY else _SEGMENT, "")
                continue
            tokens.append((kind, ""))
        else:
            tokens.append((_ONE, "") if char == "?" else (_LITERAL, char))
            i += 1
    return tokens
