"""Bridge discovery by DNS: new addresses attached, long-gone ones detached, failures retried."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from pinchtab.config import DiscoveryConfig
from pinchtab.errors import PinchtabError
from pinchtab.server.discovery import MISSES, Discovery, origin_of, resolve


class FakeAttachments:
    def __init__(self) -> None:
        self.manager = SimpleNamespace(instances={})
        self.calls: list[tuple[str, Any]] = []
        self.refuse: set[str] = set()

    async def attach_bridge(self, url: str, token: str | None, name: str | None) -> tuple[Any, bool]:
        self.calls.append(("attach", (url, token)))
        if url in self.refuse:
            raise PinchtabError(f"{url} did not answer", "attach_unreachable")
        inst = SimpleNamespace(id=f"inst_{len(self.calls)}")
        self.manager.instances[inst.id] = inst
        return inst, True

    async def detach(self, iid: str) -> Any:
        self.calls.append(("detach", iid))
        return self.manager.instances.pop(iid)


async def test_rounds_attach_and_detach() -> None:
    answers: list[set[str]] = [{"10.0.0.1", "10.0.0.2"}, {"10.0.0.1", "10.0.0.2"}, {"10.0.0.2"}, set(), set(), set()]

    async def resolver(name: str, port: int) -> set[str]:
        assert (name, port) == ("bridges.ns.svc", 9867)
        return answers.pop(0)

    fake = FakeAttachments()
    fake.refuse = {"http://10.0.0.2:9867"}
    d = Discovery(DiscoveryConfig(dns="bridges.ns.svc", token="t"), fake, resolver)  # type: ignore[arg-type]
    await d.round()
    assert fake.calls == [("attach", ("http://10.0.0.1:9867", "t")), ("attach", ("http://10.0.0.2:9867", "t"))]
    fake.refuse.clear()
    await d.round()  # .1 known and registered: left alone; .2 failed before: tried again
    assert fake.calls[2:] == [("attach", ("http://10.0.0.2:9867", "t"))]
    first = d.known["http://10.0.0.1:9867"]
    for _ in range(MISSES - 1):
        await d.round()
        assert first in fake.manager.instances  # gone from DNS, not yet detached
    await d.round()
    assert ("detach", first) in fake.calls and first not in fake.manager.instances
    assert "http://10.0.0.2:9867" in d.known  # missed fewer rounds


async def test_a_detached_bridge_that_is_still_in_dns_is_attached_again() -> None:
    async def resolver(name: str, port: int) -> set[str]:
        return {"10.0.0.9"}

    fake = FakeAttachments()
    d = Discovery(DiscoveryConfig(dns="x"), fake, resolver)  # type: ignore[arg-type]
    await d.round()
    fake.manager.instances.clear()  # someone called POST /instances/{id}/detach
    await d.round()
    assert [c[0] for c in fake.calls] == ["attach", "attach"]


async def test_resolve_and_origins() -> None:
    assert "127.0.0.1" in await resolve("localhost", 80) or "::1" in await resolve("localhost", 80)
    assert await resolve("no-such-host.invalid", 80) == set()
    assert origin_of("https", "fd00::5", 9867) == "https://[fd00::5]:9867"
