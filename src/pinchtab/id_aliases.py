"""Old id -> current id, for tabs reopened under a new target id after a crash (bounded)."""

from __future__ import annotations

MAX_ALIASES = 1000


class Aliases:
    def __init__(self, limit: int = MAX_ALIASES) -> None:
        self.limit = limit
        self._map: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._map)

    def resolve(self, key: str) -> str:
        return self._map.get(key, key)

    def add(self, old: str, new: str) -> None:
        """``old`` is now ``new``; ids that pointed at ``old`` follow (a second crash)."""
        for key, value in list(self._map.items()):
            if value == old:
                self._map[key] = new
        self._map[old] = new
        while len(self._map) > self.limit:
            self._map.pop(next(iter(self._map)))
