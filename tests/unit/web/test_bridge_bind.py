"""`pinchtab bridge` for remote use: a bind beyond loopback needs a token, a blank token is refused,
and the token check compares in constant time (hmac.compare_digest in web.TokenAuth)."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from pinchtab.cli import main


@pytest.mark.parametrize("args, says", [
    (["--bind", "0.0.0.0"], "without a token"),
    (["--bind", "192.0.2.1", "--token", ""], "without a token"),
    (["--bind", "0.0.0.0", "--token", " "], "blank"),
    (["--bind", "127.0.0.1", "--token", "  "], "blank"),
])
def test_bridge_refuses_before_listening(args: list[str], says: str, monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:
    monkeypatch.setenv("PINCHTAB_CONFIG", str(tmp_path / "none.json"))
    monkeypatch.delenv("PINCHTAB_TOKEN", raising=False)
    monkeypatch.delenv("PINCHTAB_BIND", raising=False)
    result = CliRunner().invoke(main, ["bridge", "--port", "1", *args])
    assert result.exit_code != 0
    assert says in result.output


def test_token_auth_compares_in_constant_time(monkeypatch: pytest.MonkeyPatch) -> None:
    import asyncio
    import hmac

    from pinchtab import web

    calls: list[tuple[bytes, bytes]] = []
    real = hmac.compare_digest
    monkeypatch.setattr(web.hmac, "compare_digest", lambda a, b: calls.append((a, b)) or real(a, b))

    async def app(scope, receive, send):  # type: ignore[no-untyped-def]
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": b""})

    sent: list[dict] = []

    async def send(message):  # type: ignore[no-untyped-def]
        sent.append(message)

    async def receive():  # type: ignore[no-untyped-def]
        return {"type": "http.request", "body": b""}

    auth = web.TokenAuth(app, token="s3cret")
    scope = {"type": "http", "path": "/tabs", "headers": [(b"authorization", b"Bearer wrong")]}
    asyncio.run(auth(scope, receive, send))
    assert calls == [(b"Bearer wrong", b"Bearer s3cret")]
    assert sent[0]["status"] == 401
