"""Saved browser state: the cookies of the browser and the storage of the current origin, as named
JSON files (mode 0600) under ``{stateDir}/sessions``; taken from a tab and put back into one,
possibly in another instance, so a signed-in session survives a fresh browser."""

from __future__ import annotations

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
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,99}")
COOKIE_KEYS = ("name", "value", "domain", "path", "expires", "httpOnly", "secure", "sameSite")


def sessions_dir(state_dir: str) -> Path:
    return Path(state_dir).expanduser() / "sessions"


def path_for(state_dir: str, name: str) -> Path:
    if not _NAME.fullmatch(name) or name.endswith(".json"):
        raise BadRequest(f"invalid state name {name!r}: letters, digits, '.', '_' and '-', at most 100, "
                         "not starting with '.'", "bad_state_name")
    return sessions_dir(state_dir) / f"{name}.json"


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


def save(state_dir: str, name: str, taken: dict[str, Any], metadata: dict[str, Any] | None) -> dict[str, Any]:
    path = path_for(state_dir, name)
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    doc = {"version": VERSION, "name": name, "savedAt": iso_time(time.time()), "origins": taken["origins"],
           "cookies": taken["cookies"], "storage": taken["storage"],
           "metadata": {**(metadata or {}), "url": taken["url"], "title": taken["title"]}, "encrypted": False}
    tmp = path.with_suffix(".tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as f:
        json.dump(doc, f, ensure_ascii=False, indent=1)
    os.replace(tmp, path)
    return {"name": name, "path": str(path), "cookies": len(taken["cookies"]), "origins": taken["origins"],
            "encrypted": False}


def load(state_dir: str, name: str) -> dict[str, Any]:
    path = path_for(state_dir, name)
    try:
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
    folder = sessions_dir(state_dir)
    for path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            doc = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        out.append({"name": path.stem, "savedAt": doc.get("savedAt"), "origins": doc.get("origins", []),
                    "encrypted": bool(doc.get("encrypted")), "sizeBytes": path.stat().st_size})
    out.sort(key=lambda e: e["savedAt"] or "", reverse=True)
    return out


def delete(state_dir: str, name: str) -> None:
    try:
        path_for(state_dir, name).unlink()
    except FileNotFoundError:
        raise NotFound(f"no saved state named {name!r}", "state_not_found") from None


def clean(state_dir: str, older_than_hours: float) -> int:
    folder = sessions_dir(state_dir)
    cutoff = time.time() - older_than_hours * 3600
    removed = 0
    for path in folder.glob("*.json") if folder.is_dir() else ():
        if path.stat().st_mtime < cutoff:
            path.unlink(missing_ok=True)
            removed += 1
    return removed


def default_name() -> str:
    return "state-" + datetime.now(timezone.utc).strftime("%Y%m%d-%H%M%S")
