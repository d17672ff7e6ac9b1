"""Persistent profiles: named Chrome user-data dirs under ``<stateDir>/profiles/<id>``.

The index (``<stateDir>/profiles/index.json``) keeps id, name, description and creation time;
the Chrome data itself lives in the directory beside it.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import tempfile
import time
import unicodedata
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pinchtab.errors import BadRequest, Conflict, NotFound

INDEX = "index.json"
MAX_NAME = 64
DEFAULT_MAX_PROFILES = 100
# What an id looks like: a name like that would make /profiles/<key> ambiguous.
_ID_LIKE = re.compile(r"^(prof|inst)_", re.IGNORECASE)
_PATH_CHARS = frozenset('/\\')


def check_name(name: str) -> None:
    """A profile name is a label: not an id's look-alike, no path, control or invisible characters."""
    if _ID_LIKE.match(name):
        raise BadRequest(f"name {name!r} looks like an id (prof_..., inst_...); pick another name", "invalid_name")
    if name in (".", ".."):
        raise BadRequest(f"name {name!r} is not allowed", "invalid_name")
    for ch in name:
        # Cc: control (NUL, newline); Cf: format (bidi overrides, zero-width); Zl/Zp: line breaks
        if ch in _PATH_CHARS or unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            raise BadRequest(f"name {name!r} has a character names cannot have ({ch!r}): no slashes, control "
                             "or invisible characters", "invalid_name")


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(4)}"


def iso_now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


@dataclass
class Profile:
    id: str
    name: str
    description: str
    createdAt: str
    path: str

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


class ProfileStore:
    """The profile index and directories. Not thread-safe: the server uses it from one event loop."""

    def __init__(self, state_dir: str | Path, max_profiles: int = DEFAULT_MAX_PROFILES) -> None:
        self.max_profiles = max_profiles
        self.root = Path(state_dir).expanduser() / "profiles"
        self.index_path = self.root / INDEX
        self._profiles: dict[str, Profile] = {}
        self._load()

    def _load(self) -> None:
        if not self.index_path.is_file():
            return
        try:
            raw = json.loads(self.index_path.read_text() or "{}")
        except (OSError, ValueError) as exc:
            raise BadRequest(f"cannot read the profile index {self.index_path}: {exc}; fix or remove it", "bad_profile_index") from exc
        for item in raw.get("profiles", []) if isinstance(raw, dict) else []:
            try:
                pid = str(item["id"])
                self._profiles[pid] = Profile(
                    id=pid, name=str(item["name"]), description=str(item.get("description") or ""),
                    createdAt=str(item.get("createdAt") or ""), path=str(self.root / pid),
                )
            except (KeyError, TypeError):
                continue

    def _save(self) -> None:
        self.root.mkdir(parents=True, exist_ok=True)
        data = {"profiles": [{k: v for k, v in p.to_dict().items() if k != "path"} for p in self._profiles.values()]}
        fd, tmp = tempfile.mkstemp(dir=self.root, prefix=".index-", suffix=".json")
        try:
            with os.fdopen(fd, "w") as f:
                json.dump(data, f, indent=2)
            os.replace(tmp, self.index_path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise

    def list(self) -> list[Profile]:
        return list(self._profiles.values())  # creation order

    def get(self, key: str) -> Profile:
        """A profile by id, or else by name."""
        p = self._profiles.get(key) or self.by_name(key)
        if p is None:
            raise NotFound(f"profile {key!r} not found; GET /profiles lists them", "profile_not_found")
        return p

    def by_name(self, name: str) -> Profile | None:
        return next((p for p in self._profiles.values() if p.name == name), None)

    def create(self, name: Any, description: Any = None) -> Profile:
        if not isinstance(name, str) or not name.strip():
            raise BadRequest("name is required: a non-empty string", "missing_name")
        name = name.strip()
        if len(name) > MAX_NAME:
            raise BadRequest(f"name is too long (at most {MAX_NAME} characters)", "invalid_field")
        if description is not None and not isinstance(description, str):
            raise BadRequest("description must be a string", "invalid_field")
        check_name(name)
        if len(self._profiles) >= self.max_profiles:
            raise Conflict(f"there are already {len(self._profiles)} profiles, the cap (server.maxProfiles = "
                           f"{self.max_profiles}); delete one with DELETE /profiles/{{id}} or raise the cap",
                           "profile_limit")
        if self.by_name(name) is not None:
            raise Conflict(f"a profile named {name!r} already exists; pick another name or use it", "profile_exists")
        pid = new_id("prof")
        while pid in self._profiles:
            pid = new_id("prof")
        profile = Profile(id=pid, name=name, description=description or "", createdAt=iso_now(), path=str(self.root / pid))
        Path(profile.path).mkdir(parents=True, exist_ok=True)
        self._profiles[pid] = profile
        self._save()
        return profile

    def ensure(self, name: str, description: str = "") -> Profile:
        return self.by_name(name) or self.create(name, description)

    def delete(self, key: str) -> Profile:
        profile = self.get(key)
        del self._profiles[profile.id]
        self._save()
        shutil.rmtree(profile.path, ignore_errors=True)
        return profile

