"""The server's own routes: persistent profiles and browser instances."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, field_validator

from pinchtab.models.base import ApiModel


class ProfileCreate(ApiModel):
    name: str = Field(..., description="Unique name, e.g. 'work'.")
    description: str | None = Field(None, description="What the profile is for.")


class ProfileRef(ApiModel):
    profile_id: str = Field(..., description="Profile id (or name).")


class InstanceStart(ApiModel):
    profile_id: str | None = Field(None, description="Profile id (or name); omitted: a temporary profile deleted on stop.")
    mode: Literal["headless", "headed"] | None = Field(None, description="Default: browser.headless from the config.")


class InstanceRef(ApiModel):
    instance_id: str = Field(..., description="Instance id (from GET /instances).")


class InstanceTabOpen(InstanceRef):
    url: str | None = Field(None, description="URL for the new tab (about:blank when omitted).")


class InstanceLogs(InstanceRef):
    lines: int = Field(50, description="How many of the last lines (1-1000).")

    @field_validator("lines")
    @classmethod
    def _clamp(cls, value: int) -> int:
        return max(1, min(value, 1000))
