"""Service methods of ``api/routes/state.py`` (the gate is checked before they run)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.models import state as r
from pinchtab.browser.content import saved_state, storage
from pinchtab.errors import BadRequest
from pinchtab.models import ApiModel

if TYPE_CHECKING:
    from pinchtab.browser.core.browser import Browser
    from pinchtab.config import Config


class StateOps:
    browser: "Browser"
    config: "Config"

    @property
    def _state_dir(self) -> str:
        return self.config.server.state_dir

    async def storage(self, req: r.StorageQuery) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return {"tabId": tab.id, **await storage.read(tab, req.type or None, req.key)}

    async def set_storage(self, req: r.StorageSet) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            origin = await storage.write(tab, req.type, req.key, req.value)
            return {"success": True, "tabId": tab.id, "origin": origin, "type": req.type, "key": req.key}

    async def delete_storage(self, req: r.StorageDelete) -> dict[str, Any]:
        if req.type == "all" and req.key is not None:
            raise BadRequest("key cannot be used with type=all; omit key to clear both storages", "bad_storage_type")
        async with self.browser.use_tab(req.tab_id) as tab:
            for type in ("local", "session") if req.type == "all" else (req.type,):
                origin = await storage.write(tab, type, req.key, None)
            return {"success": True, "tabId": tab.id, "origin": origin, "type": req.type,
                    **({"key": req.key} if req.key is not None else {"cleared": True})}

    async def current_state(self, req: r.StateQuery) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            return await saved_state.current(tab)

    async def list_states(self, req: ApiModel) -> dict[str, Any]:
        states = saved_state.listing(self._state_dir)
        return {"states": states, "count": len(states)}

    async def show_state(self, req: r.StateName) -> dict[str, Any]:
        return saved_state.load(self._state_dir, req.name, self.config.security.state_encryption_key)

    async def save_state(self, req: r.StateSave) -> dict[str, Any]:
        key = self.config.security.state_encryption_key
        if req.encrypt and not key:
            raise BadRequest("encrypt needs security.stateEncryptionKey in the config", "encryption_key_missing")
        name = req.name or saved_state.default_name()
        saved_state.path_for(self._state_dir, name)  # a bad name is refused before the page is read
        async with self.browser.use_tab(req.tab_id) as tab:
            taken = await saved_state.current(tab)
        return saved_state.save(self._state_dir, name, taken, req.metadata, key, req.encrypt)

    async def load_state(self, req: r.StateLoad) -> dict[str, Any]:
        doc = saved_state.load(self._state_dir, req.name, self.config.security.state_encryption_key)
        async with self.browser.use_tab(req.tab_id, create=True) as tab:
            done = await saved_state.restore(tab, doc)
        return {"name": req.name, "tabId": tab.id, "loaded": True, **done}

    async def delete_state(self, req: r.StateName) -> dict[str, Any]:
        saved_state.delete(self._state_dir, req.name)
        return {"deleted": req.name}

    async def clean_states(self, req: r.StateClean) -> dict[str, Any]:
        removed = saved_state.clean(self._state_dir, req.older_than_hours)
        return {"removed": removed, "olderThanHours": req.older_than_hours, "sessionsDir": "sessions"}

    async def clear_cookies(self, req: r.ClearCookies) -> dict[str, Any]:
        async with self.browser.use_tab(req.tab_id) as tab:
            if req.name is None and req.url is None:
                await tab.send("Network.clearBrowserCookies")
                return {"status": "cleared", "tabId": tab.id}
            url = req.url or (await tab.location())[0]
            res = await tab.send("Network.getCookies", {"urls": [url]})
            names = sorted({c["name"] for c in res.get("cookies", []) if req.name in (None, c["name"])})
            for name in names:
                await tab.send("Network.deleteCookies", {"name": name, "url": url})
            return {"status": "cleared", "tabId": tab.id, "deleted": names}
