"""Saved browser state: the cookies of the browser and the storage of the current origin, as named
JSON files (mode 0600) under ``{stateDir}/sessions``; taken from a tab and put back into one,
possibly in another instance, so a signed-in session survives a fresh browser."""

from __future__ import annotations

import hashlib
import json
import os
import re
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinchtab.browser.content import storage
from pinchtab.browser.observe.console_log import iso_time
from pinchtab.cdp import CDPError
from pinchtab.errors import BadRequest, NotFound

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page

VERSION = 1
# PinchTab's encrypted state files: <name>.json.enc = salt (16) || nonce (12) || AES-256-GCM ciphertext,
# the key PBKDF2-SHA256 (100,000 rounds) of security.stateEncryptionKey; either side reads the other's.
ENC_SUFFIX = ".json.enc"
_SALT, _NONCE, _ROUNDS = 16, 12, 100_000
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
COOKIE_KEYS = ("name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite")


def sessions_dir(state_dir: str) -> Path:
    return Path(state_dir).expanduser() / "sessions"


def path_for(state_dir: str, name: str, encrypted: bool = False) -> Path:
    if not _NAME.fullmatch(name) or name.endswith((".json", ".enc")):
        raise BadRequest(f"invalid state name {name!r}: letters, digits, '.', '_' and '-', at most 100, "
                         "not starting with '.'", "bad_state_name")
    return sessions_dir(state_dir) / (name + (ENC_SUFFIX if encrypted else ".json"))


def _key(passphrase: str | None, salt: bytes) -> bytes:
    if not passphrase:
        raise BadRequest("encrypted state needs security.stateEncryptionKey in the config", "encryption_key_missing")
    return hashlib.pbkdf2_hmac("sha256", passphrase.encode(), salt, _ROUNDS, 32)


def encrypt(data: bytes, passphrase: str | None) -> bytes:
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    salt, nonce = os.urandom(_SALT), os.urandom(_NONCE)
    return salt + nonce + AESGCM(_key(passphrase, salt)).encrypt(nonce, data, None)


def decrypt(blob: bytes, passphrase: str | None, name: str) -> bytes:
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import AESGCM

    salt, nonce, sealed = blob[:_SALT], blob[_SALT:_SALT + _NONCE], blob[_SALT + _NONCE:]
    try:
        return AESGCM(_key(passphrase, salt)).decrypt(nonce, sealed, None)
    except (InvalidTag, ValueError):
        raise BadRequest(f"saved state {name!r} does not decrypt with security.stateEncryptionKey",
                         "bad_state_file") from None


def _files(folder: Path) -> list[Path]:
    return sorted([*folder.glob("*.json"), *folder.glob("*" + ENC_SUFFIX)]) if folder.is_dir() else []


def _name_of(path: Path) -> str:
    return path.name.removesuffix(ENC_SUFFIX).removesuffix(".json")


# -- taking and restoring -----------------------------------------------------------------------------


async def _all_cookies(tab: "Page") -> list[dict[str, Any]]:
    try:
        res = await tab.send("Storage.getCookies")
    except CDPError:
        res = await tab.send("Network.getAllCookies")
    out = []
    for c in res.get("cookies", []):
        cookie = {k: c[k] for k in COOKIE_KEYS if k in c}
        if c.get("session") or cookie.get("expires", -1) < 0:
            cookie.pop("expires", None)
        out.append(cookie)
    return out


async def current(tab: "Page") -> dict[str, Any]:
    """What a save would write: cookies, the current origin's storage, and the tab."""
    url, title = await tab.location()
    stored = await storage.read(tab, None, None)
    origin = stored.get("origin") or ""
    areas = {}
    if origin and origin != "null":
        areas[origin] = {"local": {i["key"]: i["value"] for i in stored["local"]},
                         "session": {i["key"]: i["value"] for i in stored["session"]}}
    return {"tabId": tab.id, "url": url, "title": title, "origins": list(areas), "cookies": await _all_cookies(tab),
            "storage": areas}


async def restore(tab: "Page", state: dict[str, Any]) -> dict[str, Any]:
    cookies = [{k: v for k, v in c.items() if k in COOKIE_KEYS} for c in state.get("cookies", [])]
    if cookies:
        try:
            await tab.send("Network.setCookies", {"cookies": cookies})
        except CDPError as exc:
            raise BadRequest(f"cannot restore the cookies: {exc.cdp_message}", "state_restore_failed") from exc
    start, _ = await tab.location()
    restored: list[str] = []
    for origin, areas in (state.get("storage") or {}).items():
        if _origin_of(start) == origin:
            await _write_areas(tab, areas)
        else:
            await storage.in_origin(tab, origin, lambda: _write_areas(tab, areas))
        restored.append(origin)
    if restored and _origin_of(start) not in restored:
        await tab.navigate(start if start.startswith(("http://", "https://")) else "about:blank",
                           timeout_ms=RESTORE_TIMEOUT_MS)
    return {"cookies": len(cookies), "origins": restored}


RESTORE_TIMEOUT_MS = 15000


def _origin_of(url: str) -> str:
    return "/".join(url.split("/", 3)[:3]) if url.startswith(("http://", "https://")) else ""


async def _write_areas(tab: "Page", areas: dict[str, Any]) -> None:
    for type in ("local", "session"):
        for k, v in (areas.get(type) or {}).items():
            await storage.write(tab, type, k, v)


# -- files ---------------------------------------------------------------------------------------------


def save(state_dir: str, name: str, taken: dict[str, Any], metadata: dict[str, Any] | None,
         key: str | None = None, encrypted: bool = False) -> dict[str, Any]:
    path = path_for(state_dir, name, encrypted)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    doc = {"version": VERSION, "name": name, "savedAt": iso_time(time.time()), "origins": taken["origins"],
           "cookies": taken["cookies"], "storage": taken["storage"],
           "metadata": {**(metadata or {}), "url": taken["url"], "title": taken["title"]}, "encrypted": encrypted}
    data = json.dumps(doc, ensure_ascii=False, indent=1).encode()
    if encrypted:
        data = encrypt(data, key)
    tmp = path.with_name(path.name + ".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as f:
        f.write(data)
    os.replace(tmp, path)
    path_for(state_dir, name, not encrypted).unlink(missing_ok=True)  # one file per name
    return {"name": name, "path": str(path), "cookies": len(taken["cookies"]), "origins": taken["origins"],
            "encrypted": encrypted}


def load(state_dir: str, name: str, key: str | None = None) -> dict[str, Any]:
    path = path_for(state_dir, name)
    sealed = path_for(state_dir, name, True)
    try:
        if not path.exists() and sealed.exists():
            doc = json.loads(decrypt(sealed.read_bytes(), key, name))
        else:
            doc = json.loads(path.read_text())
    except FileNotFoundError:
        raise NotFound(f"no saved state named {name!r}; GET /state/list lists them", "state_not_found") from None
    except (OSError, ValueError) as exc:
        raise BadRequest(f"saved state {name!r} cannot be read: {exc}", "bad_state_file") from exc
    if not isinstance(doc, dict) or doc.get("version") != VERSION:
        raise BadRequest(f"saved state {name!r} is not a version {VERSION} state file", "bad_state_file")
    return doc


def listing(state_dir: str) -> list[dict[str, Any]]:
    out = []
    for path in _files(sessions_dir(state_dir)):
        sealed = path.name.endswith(ENC_SUFFIX)
        try:  # an encrypted file says only its name and time
            doc = {} if sealed else json.loads(path.read_text())
            saved = doc.get("savedAt") or iso_time(path.stat().st_mtime)
        except (OSError, ValueError):
            continue
        out.append({"name": _name_of(path), "savedAt": saved, "origins": doc.get("origins", []),
                    "encrypted": sealed, "sizeBytes": path.stat().st_size})
    out.sort(key=lambda e: e["savedAt"] or "", reverse=True)
    return out


def delete(state_dir: str, name: str) -> None:
    paths = [p for p in (path_for(state_dir, name), path_for(state_dir, name, True)) if p.exists()]
    if not paths:
        raise NotFound(f"no saved state named {name!r}", "state_not_found")
    for path in paths:
        path.unlink(missing_ok=True)


def clean(state_dir: str, older_than_hours: float) -> int:
    folder = sessions_dir(state_dir)
    cutoff = time.time() - older_than_hours * 3600
    removed = 0
    for path in _files(folder):
        if path.stat().st_mtime < cutoff:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def default_name() -> str:
    return "state-" + datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
