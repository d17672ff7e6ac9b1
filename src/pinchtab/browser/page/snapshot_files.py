"""``GET /snapshot?output=file``: the snapshot written under ``<stateDir>/snapshots``, its path
answered instead of its content. At most ``browser.snapshotFiles`` are kept (the oldest go)."""

from __future__ import annotations

import json
from typing import Any

from pinchtab.browser.core.state_files import stamped_name, state_folder, write_file
from pinchtab.browser.page.nodes import Snapshot
from pinchtab.config import Config

SUFFIX = {"json": "json", "text": "txt", "compact": "txt", "yaml": "yaml", "outline": "txt"}


def write(config: Config, snap: Snapshot, rendered: dict[str, Any] | str, fmt: str) -> dict[str, Any]:
    folder = state_folder(config, "snapshots")
    text = rendered if isinstance(rendered, str) else json.dumps(rendered, ensure_ascii=False)
    path = write_file(folder / stamped_name("snapshot", SUFFIX[fmt]), text)
    old = sorted(folder.glob("snapshot-*"), key=lambda p: p.stat().st_mtime)
    for stale in old[:max(len(old) - config.browser.snapshot_files, 0)]:
        stale.unlink(missing_ok=True)
    return {"path": str(path), "format": fmt, "url": snap.url, "title": snap.title, "count": len(snap.nodes),
            "bytes": len(text.encode("utf-8"))}
