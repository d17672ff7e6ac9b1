"""Frames in a snapshot: every iframe owner carries its frame (id, URL, name), and the content of a
frame the walker could not enter (another origin, in or out of process) is walked in that frame's
own isolated world and put right after its owner, one level deeper.

Nodes walked that way remember their scope (the session of the frame's target), their frame and
its owner node, which is what actions need to reach them and to turn their frame's coordinates
into the page's. Same-origin frames are walked inline by ``snapshot.js`` itself.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pinchtab.cdp import CDPError
from pinchtab.errors import PinchtabError

if TYPE_CHECKING:
    from pinchtab.browser.page.nodes import Node
    from pinchtab.browser.page.protocol import Page

MAX_NESTING = 8  # frames within frames walked this deep; deeper ones show their owner only


# (tab, scope, frame id, walker arguments) -> the walker's CDP result in that frame (snapshot.py)
FrameWalker = Callable[["Page", str, str, dict[str, Any]], Awaitable[dict[str, Any]]]
# the walker's CDP result -> (page info, nodes)
WalkParser = Callable[[dict[str, Any]], tuple[dict[str, Any], list["Node"]]]


@dataclass
class FrameWalk:
    interactive: bool
    depth: int | None
    walker: FrameWalker
    parse: WalkParser
    max_nodes: int | None = None  # the walker's node cap (snapshot.js), in each frame
    # (scope, frame id, mutation counter) of each frame walked in its own world: changes.py reads
    # their counters again to tell whether the page changed
    foreign: list[tuple[str, str, Any]] = field(default_factory=list)
    # walks of out-of-process frames started with the page's own (prefetch), by frame id
    early: dict[str, "asyncio.Future[dict[str, Any]]"] = field(default_factory=dict)
    capped: bool = False  # a frame's walk stopped at the cap

    def args(self, depth: int | None) -> dict[str, Any]:
        return {"interactive": self.interactive, "selector": None, "depth": depth, "maxNodes": self.max_nodes}


def prefetch(tab: "Page", walk: FrameWalk) -> None:
    """Start walking the tab's out-of-process frames now: they run in other renderer processes,
    so their walks overlap the page's own instead of following it."""
    if walk.depth is not None:
        return  # a frame's depth limit depends on where its owner sits
    for sid, target in tab.frames.targets.items():
        walk.early[target.frame_id] = asyncio.ensure_future(walk.walker(tab, sid, target.frame_id, walk.args(None)))


async def drain(walk: FrameWalk) -> None:
    """Settle prefetched walks nobody used (a frame whose owner was not in the snapshot)."""
    if walk.early:
        await asyncio.gather(*walk.early.values(), return_exceptions=True)
        walk.early.clear()


async def expand(tab: "Page", nodes: list["Node"], walk: FrameWalk, *, scope: str = "", frame_id: str | None = None,
                 owner: "Node | None" = None, level: int = 0) -> list["Node"]:
    """``nodes`` of one walk (in ``scope``/``frame_id``), with their frames' content spliced in."""
    if scope or frame_id or owner is not None:
        for n in nodes:
            n.scope, n.frame_id, n.owner = scope, frame_id, owner
    owners = [n for n in nodes if n.frame is not None and n.backend_id is not None]
    if not owners:
        return nodes
    ids, tree = await asyncio.gather(tab.frames.frame_ids(scope, [n.backend_id for n in owners]),  # type: ignore[misc]
                                     tab.frames.frame_tree(scope))
    found = [(node, fid, tab.frames.scope_of_frame(fid, scope)) for node, fid in zip(owners, ids) if fid]
    # an out-of-process frame is known to its own session only
    elsewhere = sorted({child for _, fid, child in found if fid not in tree})
    for more in await asyncio.gather(*(tab.frames.frame_tree(child) for child in elsewhere)):
        tree = {**more, **tree}
    jobs: dict[int, Any] = {}
    for node, fid, child_scope in found:
        info = tree.get(fid, {})
        node.frame = {"id": fid, "url": info.get("url", ""), "name": info.get("name", "")}
        if node.foreign and level < MAX_NESTING:
            jobs[id(node)] = _walk_frame(tab, node, child_scope, fid, walk, level)
    if not jobs:
        return nodes
    done = dict(zip(jobs, await asyncio.gather(*jobs.values())))
    out: list[Node] = []
    for n in nodes:
        out.append(n)
        inner = done.get(id(n))
        if inner:
            out.extend(inner)
    return out


async def _walk_frame(tab: "Page", owner: "Node", scope: str, frame_id: str, walk: FrameWalk, level: int) -> list["Node"]:
    depth = None if walk.depth is None else walk.depth - owner.depth - 1
    if depth is not None and depth < 0:
        return []
    early = walk.early.pop(frame_id, None)
    try:
        if early is not None:
            result = await early
        else:
            result = await walk.walker(tab, scope, frame_id, walk.args(depth))
    except (CDPError, PinchtabError):
        return []  # the frame went away or has no document yet: its owner stays, empty
    page, nodes = walk.parse(result)
    walk.foreign.append((scope, frame_id, page.get("mut")))
    walk.capped = walk.capped or bool(page.get("capped"))
    for n in nodes:
        n.depth += owner.depth + 1
    return await expand(tab, nodes, walk, scope=scope, frame_id=frame_id, owner=owner, level=level + 1)
