"""Files for ``<input type=file>``: base64 contents staged under the state dir, or paths from the
allowed directories, set on the input with ``DOM.setFileInputFiles``.

Chromium reads a file input's files lazily (when the form is submitted), so staged copies stay
for a day (``STAGED_RETENTION``); older staging dirs are removed on the next upload.
"""

from __future__ import annotations

import base64
import binascii
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinchtab.browser.core.state_files import state_folder
from pinchtab.errors import BadRequest, NotFound, PageScriptError

if TYPE_CHECKING:
    from pinchtab.browser.page.protocol import Page
    from pinchtab.config import Config

STAGED_PREFIX = "pinchtab-upload-"
STAGED_RETENTION = 24 * 3600
DEFAULT_SELECTOR = "input[type=file]"
_MIME_EXT = {"image/png": ".png", "image/jpeg": ".jpg", "image/gif": ".gif", "image/webp": ".webp",
             "image/svg+xml": ".svg", "application/pdf": ".pdf", "text/plain": ".txt", "text/csv": ".csv",
             "application/json": ".json", "text/html": ".html"}

# document.querySelector, then the same through open shadow roots (a file input inside a web component).
DEEP_QUERY_JS = r"""(selector) => {
  const first = document.querySelector(selector);
  if (first) return first;
  const walk = (root) => {
    for (const el of root.querySelectorAll('*')) {
      if (el.shadowRoot) {
        const hit = el.shadowRoot.querySelector(selector) || walk(el.shadowRoot);
        if (hit) return hit;
      }
    }
    return null;
  };
  return walk(document);
}"""

FILE_INPUT_JS = r"""function (count) {
  const el = this;
  if (!el.isConnected) return { stale: true };
  if (el.localName !== 'input' || el.type !== 'file') return { notFileInput: el.localName + (el.type ? '[type=' + el.type + ']' : '') };
  if (el.disabled) return { disabled: true };
  if (count > 1 && !el.multiple) return { single: true };
  return {};
}"""


def uploads_dir(config: "Config") -> Path:
    return state_folder(config, "uploads")


def allowed_dirs(config: "Config") -> list[Path]:
    return [uploads_dir(config).resolve()] + [Path(d).expanduser().resolve() for d in config.security.upload_allowed_dirs]


def decode(item: str, index: int) -> tuple[bytes, str]:
    """``data:<mime>;base64,...``, ``base64:...`` or bare base64 -> bytes and a file extension."""
    ext = ""
    data = item
    if item.startswith("data:"):
        meta, sep, data = item[5:].partition(",")
        if not sep or ";base64" not in meta:
            raise BadRequest(f"files[{index}]: a data URL must be base64 (data:<type>;base64,...)", "invalid_file")
        ext = _MIME_EXT.get(meta.split(";")[0].strip().lower(), "")
    elif item.startswith("base64:"):
        data = item[7:]
    try:
        raw = base64.b64decode(data, validate=True)
    except (binascii.Error, ValueError):
        try:
            raw = base64.urlsafe_b64decode(data + "=" * (-len(data) % 4))
        except (binascii.Error, ValueError):
            raise BadRequest(f"files[{index}] is not base64 (paths go in 'paths')", "invalid_file") from None
    return raw, ext or _sniff(raw)


def _sniff(data: bytes) -> str:
    if data.startswith(b"\x89PNG"):
        return ".png"
    if data.startswith(b"\xff\xd8"):
        return ".jpg"
    if data.startswith(b"GIF8"):
        return ".gif"
    if data.startswith(b"%PDF"):
        return ".pdf"
    return ".bin"


def check_path(config: "Config", raw: str, index: int) -> Path:
    """A regular file inside an allowed directory (relative paths are relative to <stateDir>/uploads)."""
    given = Path(raw.strip()).expanduser()
    base = uploads_dir(config)
    if not given.is_absolute():
        parts = given.parts
        given = base / Path(*parts[1:]) if parts and parts[0] == "uploads" and len(parts) > 1 else base / given
    if given.is_symlink():
        raise BadRequest(f"paths[{index}]: {raw} is a symbolic link; give the file itself", "invalid_path")
    path = given.resolve()
    dirs = allowed_dirs(config)
    if not any(path.is_relative_to(d) for d in dirs):
        raise BadRequest(
            f"paths[{index}]: {raw} is outside the allowed directories ({', '.join(map(str, dirs))}); "
            "add its directory to security.uploadAllowedDirs or send the contents base64 in 'files'",
            "path_not_allowed",
        )
    if not path.exists():
        raise BadRequest(f"paths[{index}]: file not found: {raw}", "file_not_found")
    if not path.is_file():
        raise BadRequest(f"paths[{index}]: {raw} is not a regular file", "invalid_path")
    return path


def prepare(config: "Config", files: list[str], paths: list[str]) -> tuple[list[str], Path | None]:
    """Check limits and paths, stage base64 contents; answers the file paths and the staging dir."""
    sec = config.security
    if not files and not paths:
        raise BadRequest("either 'files' (base64 contents) or 'paths' (files in an allowed directory) is required",
                         "missing_files")
    if len(files) + len(paths) > sec.upload_max_files:
        raise BadRequest(f"too many files: max {sec.upload_max_files}", "too_many_files")
    total = 0
    out: list[str] = []
    for i, raw in enumerate(paths):
        path = check_path(config, raw, i)
        size = path.stat().st_size
        if size > sec.upload_max_file_bytes:
            raise BadRequest(f"paths[{i}] exceeds the maximum file size ({sec.upload_max_file_bytes} bytes)", "file_too_large")
        total += size
        out.append(str(path))
    decoded = []
    for i, item in enumerate(files):
        data, ext = decode(item, i)
        if len(data) > sec.upload_max_file_bytes:
            raise BadRequest(f"files[{i}] exceeds the maximum file size ({sec.upload_max_file_bytes} bytes)", "file_too_large")
        total += len(data)
        decoded.append((data, ext))
    if total > sec.upload_max_total_bytes:
        raise BadRequest(f"upload too large: max {sec.upload_max_total_bytes} bytes in total", "upload_too_large")
    staged: Path | None = None
    if decoded:
        base = uploads_dir(config)
        base.mkdir(parents=True, exist_ok=True)
        _clean_stale(base)
        staged = Path(tempfile.mkdtemp(prefix=STAGED_PREFIX, dir=base))
        for i, (data, ext) in enumerate(decoded):
            path = staged / f"upload-{i}{ext}"
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            with os.fdopen(fd, "wb") as f:
                f.write(data)
            out.insert(i, str(path))
    return out, staged


def _clean_stale(base: Path) -> None:
    cutoff = time.time() - STAGED_RETENTION
    for entry in base.iterdir():
        if entry.is_dir() and entry.name.startswith(STAGED_PREFIX):
            try:
                if entry.stat().st_mtime < cutoff:
                    shutil.rmtree(entry, ignore_errors=True)
            except OSError:
                pass


async def find_input(tab: "Page", selector: str) -> tuple[int, str]:
    """The backend node id of the first match of ``selector``, through open shadow roots."""
    try:
        res = await tab.call_in_world(DEEP_QUERY_JS, selector, serialization={"serialization": "deep", "maxDepth": 0})
    except PageScriptError as exc:
        raise BadRequest(f"invalid CSS selector {selector!r}", "bad_selector") from exc
    value = res.get("deepSerializedValue", {})
    if value.get("type") != "node":
        raise NotFound(f"no element matches selector {selector!r}", "selector_not_found")
    return value["value"]["backendNodeId"], repr(selector)


async def set_files(tab: "Page", backend_id: int, label: str, paths: list[str]) -> dict[str, Any]:
    res = await tab.call_on_node(backend_id, FILE_INPUT_JS, len(paths)) or {}
    if res.get("stale"):
        raise NotFound(f"{label} is no longer in the page - take a new /snapshot", "stale_ref")
    if "notFileInput" in res:
        raise BadRequest(f"{label} is a <{res['notFileInput']}>, not an <input type=file>", "not_file_input")
    if res.get("disabled"):
        raise BadRequest(f"{label} is a disabled file input", "element_disabled")
    if res.get("single"):
        raise BadRequest(f"{label} takes one file (it has no multiple attribute); {len(paths)} given", "too_many_files")
    await tab.send("DOM.setFileInputFiles", {"files": paths, "backendNodeId": backend_id})
    return {"status": "ok", "files": len(paths)}
