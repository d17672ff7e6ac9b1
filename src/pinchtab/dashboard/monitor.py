"""What the dashboard shows of the server, pushed as it changes: instances (status, pid, memory,
restarts) and every tab (title, URL, a version that moves when something acted on the tab, so the
page reloads its thumbnail).

A snapshot is taken when a request through the server may have changed a tab (any logged request
but a GET: the recorder tells the log, the log tells this monitor), at most every
``MIN_GAP`` seconds, and every ``IDLE_POLL`` seconds besides for what happens behind the server's
back (a person closing a window, a crash). It runs only while a dashboard listens, and publishes
only a snapshot that differs from the last one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
from collections import deque
from typing import Any

from pinchtab.dashboard.activity import ActivityLog

log = logging.getLogger("pinchtab.dashboard")

MIN_GAP = 0.25  # seconds between two snapshots (the bridges' /tabs are asked at most this often)
IDLE_POLL = 5.0  # seconds between snapshots when nothing went through the server
MAX_TAB_VERSIONS = 5000
_PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def process_tree_rss(roots: list[int]) -> dict[int, int]:
    """Resident bytes of each root process and its descendants (Linux /proc; {} elsewhere)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return {}
    for entry in entries:
        if not entry.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
            fields = stat[stat.rindex(b")") + 2:].split()
            pid = int(entry)
            parents[pid] = int(fields[1])
            rss[pid] = int(fields[21]) * _PAGE
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    out: dict[int, int] = {}
    for root in roots:
        total, todo = 0, deque([root])
        seen: set[int] = set()
        while todo:
            pid = todo.popleft()
            if pid in seen:
                continue
            seen.add(pid)
            total += rss.get(pid, 0)
            todo.extend(children.get(pid, ()))
        out[root] = total
    return out


class Monitor:
    """Instances and tabs for the dashboard; publishes ``monitoring`` and ``system`` events on
    ``activity`` while anyone subscribes."""

    def __init__(self, manager: Any, locator: Any, activity: ActivityLog) -> None:
        self.manager = manager
        self.locator = locator
        self.activity = activity
        self.tab_versions: dict[str, int] = {}
        self.last: dict[str, Any] | None = None
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        activity.listeners.append(self._on_request)

    def _on_request(self, event: dict[str, Any]) -> None:
        if event["method"] in ("GET", "HEAD"):
            return
        tab = event.get("tabId")
        if tab:
            if tab not in self.tab_versions and len(self.tab_versions) >= MAX_TAB_VERSIONS:
                self.tab_versions.pop(next(iter(self.tab_versions)))
            self.tab_versions[tab] = self.tab_versions.get(tab, 0) + 1
        self._wake.set()

    async def snapshot(self) -> dict[str, Any]:
        listing = await self.locator.all_tabs()
        instances = self.manager.list()
        memory = process_tree_rss([i.pid for i in instances if i.pid])
        out_instances = []
        for inst in instances:
            item = inst.to_dict()
            item["restarts"] = inst.restarts + inst.crash_restarts
            if inst.pid and inst.pid in memory:
                item["memoryBytes"] = memory[inst.pid]
            out_instances.append(item)
        tabs = [{**t, "version": self.tab_versions.get(t.get("id", ""), 0)} for t in listing.tabs]
        return {"timestamp": int(time.time() * 1000), "instances": out_instances, "tabs": tabs,
                "unlisted": listing.unlisted}

    def ensure_running(self) -> None:
        if self._task is None or self._task.done():
            self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while self.activity.subscribers:
            try:
                await self._publish_if_changed()
            except Exception:  # a bridge that cannot list its tabs shows in "unlisted"; anything else: log, go on
                log.exception("dashboard monitoring snapshot failed")
            await asyncio.sleep(MIN_GAP)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self._wake.wait(), IDLE_POLL)
            self._wake.clear()

    async def _publish_if_changed(self) -> None:
        snap = await self.snapshot()
        before = self.last
        self.last = snap
        if before is not None and _same(before, snap):
            return
        for event in _lifecycle(before, snap):
            self.activity.publish("system", event)
        self.activity.publish("monitoring", snap)

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    def strip(snap: dict[str, Any]) -> Any:
        # Memory moves all the time: it alone is not worth a push.
        return ([{k: v for k, v in i.items() if k != "memoryBytes"} for i in snap["instances"]], snap["tabs"],
                snap["unlisted"])

    return strip(a) == strip(b)


def _lifecycle(before: dict[str, Any] | None, after: dict[str, Any]) -> list[dict[str, Any]]:
    """PinchTab's system events: instance.started, instance.stopped, instance.error."""
    if before is None:
        return []
    old = {i["id"]: i["status"] for i in before["instances"]}
    out = []
    for inst in after["instances"]:
        status = inst["status"]
        if old.get(inst["id"]) == status:
            continue
        kind = {"running": "instance.started", "error": "instance.error", "stopped": "instance.stopped"}.get(status)
        if kind:
            out.append({"type": kind, "instance": inst})
    gone = set(old) - {i["id"] for i in after["instances"]}
    out.extend({"type": "instance.stopped", "instance": {"id": iid}} for iid in sorted(gone))
    return out
