"""The server's config as the dashboard shows and edits it (GET and PUT /api/config, PinchTab's
envelope): write-only keys never leave the server; an edit is checked against the config model,
written to the server's config file and takes effect at the next start (``restartRequired``)."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pinchtab.config import Config, _merge, updated_config
from pinchtab.errors import BadRequest

# Keys whose values are never answered: each shows as ``<key>Set`` (whether it has a value).
WRITE_ONLY = frozenset({"token", "bridgeToken", "mcpToken", "stateEncryptionKey", "secrets"})
_FLAGS = frozenset(key + "Set" for key in WRITE_ONLY)


def redact(value: Any) -> Any:
    """The config as JSON with every write-only value left out: ``token`` becomes ``tokenSet``."""
    if isinstance(value, dict):
        return {(key + "Set" if key in WRITE_ONLY else key): (bool(item) if key in WRITE_ONLY else redact(item))
                for key, item in value.items()}
    if isinstance(value, list):
        return [redact(v) for v in value]
    return value


def _writable(update: dict[str, Any]) -> dict[str, Any]:
    """``update`` without GET's ``tokenSet``-style flags (a client may send GET's config back) and
    without empty write-only values (an empty password field keeps the value set)."""
    out: dict[str, Any] = {}
    for key, value in update.items():
        if key in _FLAGS or (key in WRITE_ONLY and value in ("", None, {})):
            continue
        out[key] = _writable(value) if isinstance(value, dict) and key not in WRITE_ONLY else value
    return out


def _leaves(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict) and value and prefix.rsplit(".", 1)[-1] not in WRITE_ONLY:
        out: dict[str, Any] = {}
        for key, item in value.items():
            out.update(_leaves(item, f"{prefix}.{key}" if prefix else key))
        return out
    return {prefix: value}


def _dump(config: Config) -> dict[str, Any]:
    return config.model_dump(by_alias=True, mode="json")


class Settings:
    """The config the server runs with and the one its next start will have (after edits)."""

    def __init__(self, config: Config) -> None:
        self.running = config
        self.next = config
        # The file `pinchtab server` read (--config, $PINCHTAB_CONFIG, ~/.pinchtab/config.json), else
        # <stateDir>/config.json.
        self.file = config.file or Path(config.server.state_dir) / "config.json"

    def restart_reasons(self) -> list[str]:
        """The keys whose new values wait for a restart (the server reads its config at start)."""
        now, then = _leaves(_dump(self.running)), _leaves(_dump(self.next))
        return sorted(key for key in now.keys() | then.keys() if now.get(key) != then.get(key))

    def envelope(self) -> dict[str, Any]:
        reasons = self.restart_reasons()
        return {"config": redact(_dump(self.next)), "configPath": str(self.file),
                "tokenConfigured": bool(self.next.server.token), "restartRequired": bool(reasons),
                "restartReasons": reasons}

    def update(self, update: dict[str, Any]) -> dict[str, Any]:
        given, config = updated_config(_dump(self.next), _writable(update))
        config.check_bind()
        self._write(given)
        self.next = config
        return self.envelope()

    def _write(self, given: dict[str, Any]) -> None:
        """Merge ``given`` into the file (what else it holds stays), atomically, readable by its owner
        only (it may hold the token)."""
        try:
            saved = json.loads(self.file.read_text() or "{}") if self.file.is_file() else {}
        except (OSError, ValueError) as exc:
            raise BadRequest(f"cannot read config file {self.file}: {exc}", "bad_config") from exc
        if not isinstance(saved, dict):
            raise BadRequest(f"config file {self.file} must hold a JSON object", "bad_config")
        self.file.parent.mkdir(parents=True, exist_ok=True)
        temp = self.file.with_name(self.file.name + ".tmp")
        fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(json.dumps(_merge(saved, given), indent=2) + "\n")
        os.replace(temp, self.file)
