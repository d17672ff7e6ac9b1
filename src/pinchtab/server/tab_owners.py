"""Which instance owns which tab, and which tab id a request names.

The table learns owners from the proxied responses that carry a ``tabId`` (navigate, tab/new,
back/forward/reload, close), from ``GET /tabs`` results, and is corrected on a miss by asking the
running instances. Pure logic, no I/O.
"""

from __future__ import annotations

import json
import re
from urllib.parse import parse_qs

from pinchtab.api import proxied_routes
from pinchtab.id_aliases import Aliases

# Shorthand routes the server forwards to an instance (path -> methods), from the route table.
SHORTHAND_ROUTES: dict[str, tuple[str, ...]] = {}
for _route in proxied_routes():
    SHORTHAND_ROUTES[_route.path] = SHORTHAND_ROUTES.get(_route.path, ()) + _route.methods

# Shorthand paths with a parameter (/network/{request_id}), as patterns.
_TEMPLATED = tuple(re.compile("^" + re.sub(r"\\\{\w+\\\}", "[^/]+", re.escape(p)) + "$")
                   for p in SHORTHAND_ROUTES if "{" in p and not p.startswith("/tabs/"))


# Routes (path without the slash) the server also serves at /instances/{id}/<path>, on that instance.
PER_INSTANCE: dict[str, tuple[str, ...]] = {}
for _route in proxied_routes():
    if _route.per_instance:
        PER_INSTANCE[_route.path[1:]] = PER_INSTANCE.get(_route.path[1:], ()) + _route.methods


def is_shorthand(path: str) -> bool:
    return path in SHORTHAND_ROUTES or any(t.match(path) for t in _TEMPLATED)


# Routes (path without the slash) whose small JSON answers name the tab they acted on.
TAB_ANSWERING = frozenset(r.path[1:] for r in proxied_routes() if r.answers_tab)

# Request bodies larger than this are never parsed for a tabId (they are forwarded untouched).
MAX_PARSED_BODY = 256 * 1024
# Responses larger than this are never parsed for a tabId.
MAX_PARSED_RESPONSE = 64 * 1024


class TabOwners:
    """tab id -> instance id."""

    def __init__(self) -> None:
        self._owner: dict[str, str] = {}
        # A tab reopened after its bridge crashed: old id -> new id (the agent keeps using the old),
        # and new id -> the id the agent first knew it by (what answers and listings show).
        self._moved = Aliases()
        self._origin: dict[str, str] = {}

    def __len__(self) -> int:
        return len(self._owner)

    def owner(self, tab_id: str) -> str | None:
        return self._owner.get(tab_id)

    def learn(self, tab_id: str, instance_id: str) -> None:
        self._owner[tab_id] = instance_id

    def forget(self, tab_id: str) -> None:
        self._owner.pop(tab_id, None)
        self._origin.pop(tab_id, None)

    def moved(self, old: str, new: str, instance_id: str) -> None:
        self._moved.add(old, new)
        self._owner.pop(old, None)
        self._owner[new] = instance_id
        self._origin[new] = self._origin.pop(old, old)

    def public_id(self, tab_id: str) -> str:
        """The id a reopened tab had before its bridge crashed (itself for any other tab)."""
        return self._origin.get(tab_id, tab_id)

    def current_id(self, tab_id: str) -> str:
        """The id the tab has now (itself unless it was reopened under a new one)."""
        return self._moved.resolve(tab_id)

    def forget_instance(self, instance_id: str) -> None:
        self.forget_instance_except(instance_id, set())

    def forget_instance_except(self, instance_id: str, keep: set[str]) -> None:
        for tid in [t for t, i in self._owner.items() if i == instance_id and t not in keep]:
            del self._owner[tid]
            self._origin.pop(tid, None)

    def replace_instance(self, instance_id: str, tab_ids: list[str]) -> None:
        """The instance's full tab list is now ``tab_ids`` (from its ``GET /tabs``)."""
        listed = set(tab_ids)
        self.forget_instance_except(instance_id, listed)
        for tid in tab_ids:
            self._owner[tid] = instance_id

    def tabs_of(self, instance_id: str) -> list[str]:
        return [t for t, i in self._owner.items() if i == instance_id]


def tab_id_in_request(query_string: bytes, body: bytes) -> str | None:
    """The ``tabId`` a shorthand request names: ``?tabId=`` first, then a small JSON body."""
    if b"tabId" in query_string:
        values = parse_qs(query_string.decode("latin-1")).get("tabId")
        if values and values[0]:
            return values[0]
    if body and len(body) <= MAX_PARSED_BODY and b'"tabId"' in body:
        try:
            data = json.loads(body)
        except (ValueError, RecursionError):
            return None  # the bridge answers the parse error
        if isinstance(data, dict):
            tid = data.get("tabId")
            if isinstance(tid, str) and tid:
                return tid
    return None


def tab_id_in_response(body: bytes) -> str | None:
    """The ``tabId`` of a small JSON response, if any."""
    return tab_in_response(body)[0]


def tab_in_response(body: bytes) -> tuple[str | None, str | None]:
    """The ``tabId`` and ``url`` of a small JSON response (None where absent)."""
    if not body or len(body) > MAX_PARSED_RESPONSE or b'"tabId"' not in body:
        return None, None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None, None
    if not isinstance(data, dict):
        return None, None
    tid, url = data.get("tabId"), data.get("url")
    return (tid if isinstance(tid, str) and tid else None), (url if isinstance(url, str) and url else None)


def url_in_request(body: bytes) -> str | None:
    """The ``url`` a small JSON request body asks to load (navigate, tab new)."""
    if not body or len(body) > MAX_PARSED_BODY or b'"url"' not in body:
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    url = data.get("url") if isinstance(data, dict) else None
    return url if isinstance(url, str) and url else None


def closes_tab(route: str, status: int, body: bytes) -> bool:
    """Did this answer close a tab (``/close``, ``/tab`` with action close)?"""
    if status != 200 or route not in ("close", "tab"):
        return False
    return b'"closed":true' in body or b'"closed": true' in body
