"""security.attach: which URLs attach-bridge and attach accept, and what they answer otherwise."""

from __future__ import annotations

import pytest

from pinchtab.config import AttachConfig
from pinchtab.errors import BadRequest, Forbidden
from pinchtab.server.attached import BRIDGE_SCHEMES, CDP_SCHEMES, check_url


def policy(**kw: object) -> AttachConfig:
    return AttachConfig.model_validate({"enabled": True, **kw})


def test_off_by_default_and_403_names_the_key() -> None:
    assert AttachConfig().enabled is False
    with pytest.raises(Forbidden) as info:
        check_url("http://127.0.0.1:9867", AttachConfig(), schemes=BRIDGE_SCHEMES, bare_origin=True)
    assert info.value.extra["key"] == "security.attach.enabled" and "security.attach.enabled" in info.value.message


@pytest.mark.parametrize("url, origin", [
    ("http://127.0.0.1:9867", "http://127.0.0.1:9867"),
    ("http://127.0.0.1:9867/", "http://127.0.0.1:9867"),
    ("HTTPS://LOCALHOST", "https://localhost:443"),
    ("http://[::1]:9000", "http://[::1]:9000"),
])
def test_bridge_origins(url: str, origin: str) -> None:
    assert check_url(url, policy(), schemes=BRIDGE_SCHEMES, bare_origin=True) == origin


@pytest.mark.parametrize("url, key", [
    ("http://10.0.0.5:9867", "allowHosts"),
    ("http://evil.example:9867", "allowHosts"),
    ("http://127.0.0.1.evil.example:9867", "allowHosts"),
])
def test_hosts_outside_the_list_are_forbidden(url: str, key: str) -> None:
    with pytest.raises(Forbidden) as info:
        check_url(url, policy(), schemes=BRIDGE_SCHEMES, bare_origin=True)
    assert info.value.extra["key"] == f"security.attach.{key}"


def test_wildcard_and_networks() -> None:
    assert check_url("http://bridge-0.bridges.ns.svc:9867", policy(allowHosts=["*"]), schemes=BRIDGE_SCHEMES, bare_origin=True)
    assert check_url("http://10.1.2.3:9867", policy(allowHosts=["10.0.0.0/8"]), schemes=BRIDGE_SCHEMES, bare_origin=True)
    with pytest.raises(Forbidden):
        check_url("http://11.1.2.3:9867", policy(allowHosts=["10.0.0.0/8"]), schemes=BRIDGE_SCHEMES, bare_origin=True)


def test_schemes() -> None:
    with pytest.raises(Forbidden) as info:
        check_url("https://127.0.0.1:9867", policy(allowSchemes=["http"]), schemes=BRIDGE_SCHEMES, bare_origin=True)
    assert info.value.extra["key"] == "security.attach.allowSchemes"
    with pytest.raises(BadRequest):  # a websocket is a Chrome, not a bridge
        check_url("ws://127.0.0.1:9222", policy(), schemes=BRIDGE_SCHEMES, bare_origin=True)


@pytest.mark.parametrize("url", [
    "http://127.0.0.1:9867/health", "http://u:p@127.0.0.1:9867", "http://127.0.0.1:9867?a=1",
    "http://127.0.0.1:9867#x", "127.0.0.1:9867", "http://127.0.0.1:99999", "",
])
def test_malformed_bridge_urls(url: str) -> None:
    with pytest.raises(BadRequest) as info:
        check_url(url, policy(), schemes=BRIDGE_SCHEMES, bare_origin=True)
    assert info.value.code == "invalid_url"


def test_cdp_urls() -> None:
    ws = "ws://127.0.0.1:9222/devtools/browser/abc"
    assert check_url(ws, policy(), schemes=CDP_SCHEMES, bare_origin=False) == ws
    assert check_url("http://127.0.0.1:9222", policy(), schemes=CDP_SCHEMES, bare_origin=False)
    with pytest.raises(BadRequest):
        check_url("ws://127.0.0.1:9222/devtools/page/abc", policy(), schemes=CDP_SCHEMES, bare_origin=False)
