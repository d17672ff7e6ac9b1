"""Storage of the current origin and saved browser state (cookies + storage as named files).
All of it is off unless ``security.allowStateExport``: it hands out sessions and tokens."""

from __future__ import annotations

from pinchtab.api.route import Route
from pinchtab.models.gates import COOKIES, STATE_EXPORT
from pinchtab.models.base import ApiModel
from pinchtab.models.state import (
    ClearCookies, StateClean, StateLoad, StateName, StateQuery, StateSave, StorageDelete, StorageQuery, StorageSet,
)


def _state(name: str, methods: tuple[str, ...], path: str, model: type[ApiModel], summary: str, cli: str) -> Route:
    return Route(name, methods, path, model, summary, tabbed=False, gate=STATE_EXPORT, cli=(cli,))


ROUTES: tuple[Route, ...] = (
    Route("storage", ("GET",), "/storage", StorageQuery, "localStorage and sessionStorage of the tab's origin",
          gate=STATE_EXPORT, cli=("storage",)),
    Route("set_storage", ("POST",), "/storage", StorageSet, "Set a storage item of the tab's origin",
          gate=STATE_EXPORT, cli=("storage-set",)),
    Route("delete_storage", ("DELETE",), "/storage", StorageDelete, "Remove a storage item, or clear the storage",
          gate=STATE_EXPORT, cli=("storage-delete",)),
    Route("clear_cookies", ("DELETE",), "/cookies", ClearCookies,
          "Delete cookies: all of the browser, or those of url / name (needs security.allowCookies)", gate=COOKIES,
          cli=("cookies-clear",)),
    _state("current_state", ("GET",), "/state", StateQuery,
           "The browser state a save would write: cookies, the origin's storage, the tab", "state"),
    _state("list_states", ("GET",), "/state/list", ApiModel, "Saved states, newest first", "state-list"),
    _state("show_state", ("GET",), "/state/show", StateName, "One saved state, whole", "state-show"),
    _state("save_state", ("POST",), "/state/save", StateSave,
           "Save cookies and the current origin's storage under a name", "state-save"),
    _state("load_state", ("POST",), "/state/load", StateLoad, "Restore a saved state into a tab", "state-load"),
    _state("delete_state", ("DELETE",), "/state", StateName, "Delete a saved state", "state-delete"),
    _state("clean_states", ("POST",), "/state/clean", StateClean, "Delete saved states older than N hours",
           "state-clean"),
)
