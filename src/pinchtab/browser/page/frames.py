"""A tab's frames: out-of-process iframes (their own CDP targets) and pinchtab's isolated world in
any frame.

Chromium runs an iframe from another site in another renderer process, as a target of its own.
``FrameHub`` asks the tab's session to auto-attach to those targets with flattened sessions (and
each of those sessions to do the same, for frames nested in them), so every frame of the tab can
be reached: a frame is addressed by its *scope* (the CDP session of the target holding it, "" for
the tab's own) and its frame id. Frames of another origin in the same process need no target,
only an isolated world made in their frame.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from pinchtab.browser.page.refs import StaleRef
from pinchtab.browser.core.script_errors import raise_script_error
from pinchtab.browser.page.nodes import Node
from pinchtab.cdp import CDPError, Session
from pinchtab.errors import NotFound

log = logging.getLogger("pinchtab.frames")

WORLD_NAME = "pinchtab"
_AUTO_ATTACH = {"autoAttach": True, "waitForDebuggerOnStart": False, "flatten": True,
                "filter": [{"type": "iframe", "exclude": False}]}


class FrameOwner(Protocol):
    """What a ``FrameHub`` uses of its tab (``core.tab.Tab``)."""

    session: Session
    document: int
    frame_events: int

    async def call_in_world(self, function: str, *args: Any,
                            serialization: dict[str, Any] | None = None) -> dict[str, Any]: ...


@dataclass
class FrameScope:
    """The frame selector-based work happens in (PinchTab's ``/frame``), set by ``scoping.py``."""

    frame_id: str
    scope: str               # the session holding the frame
    url: str
    name: str
    owner: Node              # the iframe element (its own scope, frame and owner: input/point.py)
    document: int            # the tab's main document then (a new one ends the scope)

    def to_json(self) -> dict[str, str]:
        out = {"frameId": self.frame_id, "frameUrl": self.url, "frameName": self.name}
        if self.owner.ref:
            out["ownerRef"] = self.owner.ref
        return out


@dataclass
class FrameTarget:
    """An out-of-process frame: its session, root frame id (= its target id) and the scope of
    the session it was attached from."""

    session: Session
    frame_id: str
    parent_scope: str
    url: str = ""
    # bumped when its root frame loads a new document (refs.py: a new process renumbers nodes)
    generation: int = 0
    # the generation whose first input waited for it to draw (input/point.py wait_drawn)
    drawn_generation: int = -1
    offs: list[Callable[[], None]] = field(default_factory=list)


class FrameHub:
    def __init__(self, tab: FrameOwner) -> None:
        self.tab = tab
        self._offs: list[Callable[[], None]] = []  # listeners on the tab's own session
        self.targets: dict[str, FrameTarget] = {}   # session id -> out-of-process frame
        self._worlds: dict[tuple[str, str], int] = {}  # (scope, frame id) -> isolated world context
        self._current: FrameScope | None = None
        # What frame_ids and frame_tree learnt, valid while the page is the same document and no
        # frame came, went or navigated: a snapshot of an unchanged page asks Chromium nothing again.
        self._known_at: tuple[int, int] = (-1, -1)
        self._owner_frames: dict[tuple[str, int], str | None] = {}
        self._trees: dict[str, dict[str, dict[str, str]]] = {}

    # -- targets ------------------------------------------------------------------------------

    async def start(self) -> None:
        self._watch(self.tab.session, "")
        await self.tab.session.send("Target.setAutoAttach", _AUTO_ATTACH)

    def _watch(self, session: Session, scope: str) -> list[Callable[[], None]]:
        offs = [
            session.on("Target.attachedToTarget", lambda p: self._on_attached(scope, p)),
            session.on("Target.detachedFromTarget", self._on_detached),
        ]
        if not scope:
            self._offs.extend(offs)
        return offs

    def _on_attached(self, parent_scope: str, params: dict[str, Any]) -> None:
        info = params.get("targetInfo", {})
        sid = params.get("sessionId")
        if info.get("type") != "iframe" or not sid:
            return
        target = FrameTarget(Session(self.tab.session.connection, sid), info.get("targetId", ""), parent_scope,
                             url=info.get("url", ""))
        self.targets[sid] = target
        self.tab.frame_events += 1
        target.offs += self._watch(target.session, sid)
        target.offs.append(target.session.on("Page.frameNavigated", lambda p: self._on_navigated(target, p)))
        asyncio.ensure_future(self._init_target(target))

    async def _init_target(self, target: FrameTarget) -> None:
        s = target.session
        with contextlib.suppress(Exception):
            await asyncio.gather(
                s.send("Page.enable"),
                # computedRole/computedName are fast only while the accessibility tree is kept
                s.send("Accessibility.enable"),
                s.send("Target.setAutoAttach", _AUTO_ATTACH),
            )

    def _on_navigated(self, target: FrameTarget, params: dict[str, Any]) -> None:
        frame = params.get("frame", {})
        self.tab.frame_events += 1
        if frame.get("id") == target.frame_id:
            target.generation += 1
            target.url = frame.get("url", target.url)

    def _on_detached(self, params: dict[str, Any]) -> None:
        target = self.targets.pop(params.get("sessionId", ""), None)
        if target is None:
            return
        self.tab.frame_events += 1
        self._drop(target)

    def _drop(self, target: FrameTarget) -> None:
        for off in target.offs:
            off()
        sid = target.session.session_id
        self._worlds = {k: v for k, v in self._worlds.items() if k[0] != sid}
        self.tab.session.connection.drop_session(sid)

    def close(self) -> None:
        """The tab is gone: stop listening and forget its frame sessions."""
        for off in self._offs:
            off()
        self._offs.clear()
        for target in self.targets.values():
            self._drop(target)
        self.targets.clear()
        self._current = None

    def generations(self) -> dict[str, int]:
        return {sid: t.generation for sid, t in self.targets.items()}

    def session(self, scope: str) -> Session:
        if not scope:
            return self.tab.session
        target = self.targets.get(scope)
        if target is None:
            raise StaleRef("its frame is gone (the iframe was removed or navigated) - take a new /snapshot")
        return target.session

    def scope_of_frame(self, frame_id: str, parent_scope: str) -> str:
        """The scope holding ``frame_id``: its own target's session when it runs out of process."""
        for sid, target in self.targets.items():
            if target.frame_id == frame_id:
                return sid
        return parent_scope

    # -- the frame scope -----------------------------------------------------------------------

    @property
    def current(self) -> FrameScope | None:
        """The frame scope, while its frame is still there (else none: the main document)."""
        cur = self._current
        if cur is not None and (cur.document != self.tab.document or (cur.scope and cur.scope not in self.targets)):
            self._current = cur = None
        return cur

    def set_scope(self, scope: FrameScope | None) -> None:
        self._current = scope

    async def call_in_scope(self, function: str, *args: Any, serialization: dict[str, Any] | None = None) -> dict[str, Any]:
        """``function(*args)`` in pinchtab's isolated world of the scoped frame (or the page)."""
        cur = self.current
        if cur is None:
            return await self.tab.call_in_world(function, *args, serialization=serialization)
        return await self.call(cur.scope, cur.frame_id, function, *args, serialization=serialization)

    def node_in_scope(self, backend_id: int, label: str) -> Node:
        """A node found by a script in the scoped frame, addressed like a snapshot's."""
        cur = self.current
        if cur is None:
            return Node("", "", label, 0, backend_id)
        return Node("", "", label, 0, backend_id, scope=cur.scope, frame_id=cur.frame_id, owner=cur.owner)

    async def locate(self, frame_id: str) -> str:
        """The scope holding ``frame_id`` (any frame of the tab, nested or out of process)."""
        for sid, target in self.targets.items():
            if target.frame_id == frame_id:
                return sid
        for scope in ("", *self.targets):
            if frame_id in await self.frame_tree(scope):
                return scope
        raise NotFound(f"frame {frame_id} not found in this tab; the Iframe nodes of /snapshot carry "
                       "their childFrameId", "frame_not_found")

    def view(self, scope: str, frame_id: str) -> "FrameView":
        return FrameView(self, scope, frame_id)

    # -- scripts in frames ----------------------------------------------------------------------

    async def world(self, scope: str, frame_id: str) -> int:
        key = (scope, frame_id)
        ctx = self._worlds.get(key)
        if ctx is None:
            res = await self.session(scope).send(
                "Page.createIsolatedWorld", {"frameId": frame_id, "worldName": WORLD_NAME, "grantUniveralAccess": True})
            ctx = self._worlds[key] = res["executionContextId"]
        return ctx

    async def call(self, scope: str, frame_id: str, function: str, *args: Any,
                   serialization: dict[str, Any] | None = None) -> dict[str, Any]:
        """Call ``function(*args)`` in pinchtab's isolated world of a frame; the CDP result object."""
        params: dict[str, Any] = {"functionDeclaration": function, "arguments": [{"value": a} for a in args],
                                  "awaitPromise": True}
        if serialization:
            params["serializationOptions"] = serialization
        else:
            params["returnByValue"] = True
        for attempt in (1, 2):
            params["executionContextId"] = await self.world(scope, frame_id)
            try:
                res = await self.session(scope).send("Runtime.callFunctionOn", params)
            except CDPError as exc:
                # the frame loaded a new document since the world was made: make a new one once
                if attempt == 1 and "context" in exc.cdp_message.lower():
                    self._worlds.pop((scope, frame_id), None)
                    continue
                raise
            raise_script_error(res)
            return res["result"]
        raise AssertionError("unreachable")

    async def resolve(self, scope: str, frame_id: str | None, backend_id: int) -> str:
        """An object id for a node of ``scope``: in its frame's isolated world when the frame is
        known, else in the world Chromium picks (the main world of the node's frame)."""
        session = self.session(scope)
        params: dict[str, Any] = {"backendNodeId": backend_id, "objectGroup": WORLD_NAME}
        if frame_id:
            with contextlib.suppress(CDPError):
                ctx = await self.world(scope, frame_id)
                return (await session.send("DOM.resolveNode", {**params, "executionContextId": ctx}))["object"]["objectId"]
        return (await session.send("DOM.resolveNode", params))["object"]["objectId"]

    def _fresh(self) -> None:
        now = (self.tab.document, self.tab.frame_events)
        if self._known_at != now:
            self._known_at = now
            self._owner_frames.clear()
            self._trees.clear()

    async def frame_ids(self, scope: str, backend_ids: list[int]) -> list[str | None]:
        """The frame each iframe element (by backend node id) holds."""
        self._fresh()
        session = self.session(scope)
        known = self._owner_frames

        async def one(bid: int) -> None:
            try:
                known[(scope, bid)] = (await session.send("DOM.describeNode", {"backendNodeId": bid}))["node"].get("frameId")
            except CDPError:
                known[(scope, bid)] = None

        await asyncio.gather(*(one(b) for b in backend_ids if (scope, b) not in known))
        return [known.get((scope, b)) for b in backend_ids]

    async def frame_tree(self, scope: str) -> dict[str, dict[str, str]]:
        """frame id -> {"url", "name", "parent"} of every frame the session knows."""
        self._fresh()
        if scope not in self._trees:
            self._trees[scope] = await self._read_tree(scope)
        return self._trees[scope]

    async def _read_tree(self, scope: str) -> dict[str, dict[str, str]]:
        out: dict[str, dict[str, str]] = {}
        try:
            tree = (await self.session(scope).send("Page.getFrameTree"))["frameTree"]
        except CDPError:
            return out
        stack = [tree]
        while stack:
            node = stack.pop()
            f = node["frame"]
            out[f["id"]] = {"url": f.get("url", "") + f.get("urlFragment", ""), "name": f.get("name", ""),
                            "parent": f.get("parentId", "")}
            stack.extend(node.get("childFrames", []))
        return out


class FrameView:
    """A frame seen as a page by readers written for a tab (``content.reading.readable_text``): scripts
    run in the frame's isolated world, its location is the frame's."""

    def __init__(self, hub: FrameHub, scope: str, frame_id: str) -> None:
        self.hub, self.scope, self.frame_id = hub, scope, frame_id

    async def eval_in_world(self, function: str, *args: Any, timeout: float | None = None) -> Any:
        return (await self.hub.call(self.scope, self.frame_id, function, *args)).get("value")

    async def location(self) -> tuple[str, str]:
        value = await self.eval_in_world("() => [location.href, document.title]")
        return value[0], value[1]
