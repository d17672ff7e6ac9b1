"""Storage of the current origin and saved browser state (cookies + storage as named files).
All of it is off unless ``security.allowStateExport``: it hands out sessions and tokens."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from pinchtab.models.base import ApiModel, TabScoped


class StorageQuery(TabScoped):
    type: Literal["local", "session", ""] | None = Field(None, description="local, session, or omitted for both.")
    key: str | None = Field(None, description="Only this key.")


class StorageSet(TabScoped):
    key: str = Field(..., min_length=1, description="Key to set.")
    value: str = Field(..., description="Value to store.")
    type: Literal["local", "session"] = Field(..., description="local or session.")


class StorageDelete(TabScoped):
    type: Literal["local", "session", "all"] = Field(..., description="local, session, or all (both, whole).")
    key: str | None = Field(None, description="Remove only this key (omitted: clear the storage).")


class ClearCookies(TabScoped):
    url: str | None = Field(None, description="Only cookies of this URL (with name: only that one).")
    name: str | None = Field(None, description="Only the cookie with this name (needs url, or the tab's URL is used).")


class StateQuery(ApiModel):
    tab_id: str | None = Field(None, description="Tab to read (the current tab when omitted).")


class StateName(ApiModel):
    name: str = Field(..., description="Name of the saved state.")


class StateSave(ApiModel):
    name: str | None = Field(None, description="Name to save under (default: state-<UTC time>); an existing one is replaced.")
    tab_id: str | None = Field(None, description="Tab whose origin's storage is saved (default: the current tab).")
    metadata: dict[str, Any] | None = Field(None, description="Anything to keep with it.")
    encrypt: bool = Field(False, description="Write <name>.json.enc, AES-256-GCM with a key derived from "
                                             "security.stateEncryptionKey (PinchTab's format); else plain JSON, mode 0600.")


class StateLoad(ApiModel):
    name: str = Field(..., description="Name of the saved state.")
    tab_id: str | None = Field(None, description="Tab to restore into (default: the current tab).")


class StateClean(ApiModel):
    older_than_hours: float = Field(24, ge=0, description="Delete saved states older than this many hours.")
