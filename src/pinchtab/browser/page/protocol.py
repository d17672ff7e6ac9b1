"""What the page helpers (snapshot, refs, selectors, content, ...) use of a tab: ``Page``.

``core.tab.Tab`` implements it. Helpers take a ``Page`` rather than a ``Tab`` so that ``Tab`` can
import them without an import cycle; the parts a tab is made of (its ref cache, frame hub, dialog
tracker and observer) know nothing of ``Tab`` either.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from pinchtab.browser.core.dialogs import DialogTracker
    from pinchtab.browser.observe.observer import TabObserver
    from pinchtab.browser.page.frames import FrameHub
    from pinchtab.browser.page.refs import RefCache
    from pinchtab.find import IntentCache


class Page(Protocol):
    id: str
    url: str
    title: str
    main_frame_id: str
    crashed: bool
    document: int        # main-frame documents so far (a new one makes old snapshots stale)
    frame_events: int    # child frames navigating or going away (changes.py)
    refs: RefCache
    frames: FrameHub
    dialogs: DialogTracker
    observer: TabObserver
    intents: IntentCache

    @property
    def world_id(self) -> int | None: ...

    def generations(self) -> dict[str, int]: ...

    async def send(self, method: str, params: dict[str, Any] | None = None, *,
                   timeout: float | None = None) -> dict[str, Any]: ...

    async def call_in_world(self, function: str, *args: Any, serialization: dict[str, Any] | None = None,
                            timeout: float | None = None) -> dict[str, Any]: ...

    async def eval_in_world(self, function: str, *args: Any, timeout: float | None = None) -> Any: ...

    async def call_on_node(self, backend_id: int, function: str, *args: Any, scope: str = "",
                           frame_id: str | None = None) -> Any: ...

    async def location(self) -> tuple[str, str]: ...

    async def navigate(self, url: str, *, timeout_ms: int, wait_for: str = "load", wait_selector: str | None = None,
                       block_images: bool = False, block_media: bool = False) -> dict[str, str]: ...
