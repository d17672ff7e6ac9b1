"""Secrets' redaction, the close_idle timer and retained-body bookkeeping, without a browser."""

from __future__ import annotations

import asyncio

import pytest

from pinchtab.browser.core.tab_lifecycle import IdleCloser
from pinchtab.config import TabPolicy, load_config
from pinchtab.errors import BadRequest
from pinchtab.secrets import Secrets


def test_secrets_redact_raw_and_json_escaped_values() -> None:
    s = Secrets({"pw": 'p"ss-word', "long": "p\"ss-word-longer"})
    assert s.redact('{"v":"p\\"ss-word"}'.encode()) == b'{"v":"[secret:pw]"}'
    assert s.redact_text('x p"ss-word-longer y') == "x [secret:long] y"  # the longer value first
    with pytest.raises(BadRequest) as err:
        s.value("other")
    assert err.value.code == "unknown_secret" and "long, pw" in err.value.message


def test_secrets_come_from_the_config_and_the_environment() -> None:
    cfg = load_config({"security": {"secrets": {"a": "value-a"}}}, environ={"PINCHTAB_SECRET_GITHUB_TOKEN": "tok-123"})
    assert cfg.security.secrets == {"a": "value-a", "github_token": "tok-123"}
    with pytest.raises(BadRequest):  # too short to redact safely
        load_config({"security": {"secrets": {"a": "x"}}}, environ={})


def test_close_idle_arms_resets_and_cancels() -> None:
    closed: list[str] = []

    async def close(tab_id: str) -> None:
        closed.append(tab_id)

    async def scenario() -> None:
        idle = IdleCloser(TabPolicy(lifecycle="close_idle", close_delay_sec=0.05), close, lambda _: False)
        idle.arm("a")
        idle.arm("b")
        idle.cancel("b")  # /navigate called it off
        await asyncio.sleep(0.2)
        assert closed == ["a"]
        keep = IdleCloser(TabPolicy(), close, lambda _: False)  # lifecycle "keep"
        keep.arm("c")
        assert not keep._timers

    asyncio.run(scenario())


def test_allowed_domains() -> None:
    from pinchtab.browser.core.urls import check_allowed_domain, refuse_domain
    from pinchtab.errors import Forbidden

    allowed = ["localhost", "*.example.com", "::1"]
    assert check_allowed_domain("https://a.b.example.com/x", allowed) is None
    assert check_allowed_domain("http://[::1]:8080/", allowed) is None
    assert check_allowed_domain("about:blank", allowed) is None and check_allowed_domain("https://x.org", []) is None
    assert "x.org" in (check_allowed_domain("https://x.org/", allowed) or "")
    assert refuse_domain("https://x.org/", allowed, strict=False) is not None
    with pytest.raises(Forbidden):
        refuse_domain("https://x.org/", allowed, strict=True)


def test_encrypted_state_files_round_trip(tmp_path) -> None:
    from pinchtab.browser.content import saved_state

    taken = {"origins": ["https://a.example"], "cookies": [{"name": "sid", "value": "v"}], "storage": {},
             "url": "https://a.example/", "title": "A"}
    saved = saved_state.save(str(tmp_path), "work", taken, None, key="pass-phrase", encrypted=True)
    path = tmp_path / "sessions" / "work.json.enc"
    assert saved["path"] == str(path) and saved["encrypted"] is True and b"sid" not in path.read_bytes()
    assert saved_state.load(str(tmp_path), "work", "pass-phrase")["cookies"] == taken["cookies"]
    assert saved_state.listing(str(tmp_path))[0]["encrypted"] is True
    with pytest.raises(BadRequest) as wrong:
        saved_state.load(str(tmp_path), "work", "other")
    assert wrong.value.code == "bad_state_file"
    with pytest.raises(BadRequest):
        saved_state.load(str(tmp_path), "work", None)  # no key configured
    saved_state.delete(str(tmp_path), "work")
    assert saved_state.listing(str(tmp_path)) == []
