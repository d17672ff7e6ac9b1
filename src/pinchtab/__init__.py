"""pinchtab: browser control for AI agents."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["AsyncClient", "Client", "PinchtabClientError", "__version__"]

if TYPE_CHECKING:
    from pinchtab.client import AsyncClient, Client, PinchtabClientError


def __getattr__(name: str) -> Any:
    # Lazy: `import pinchtab` (and so every `pinchtab` command) stays fast; httpx and pydantic
    # load only when a client is used.
    if name in ("Client", "AsyncClient", "PinchtabClientError"):
        from pinchtab import client

        return getattr(client, name)
    raise AttributeError(f"module 'pinchtab' has no attribute {name!r}")
