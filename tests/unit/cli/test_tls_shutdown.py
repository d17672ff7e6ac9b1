"""`pinchtab bridge --tls-cert` stops promptly while a client keeps an idle HTTPS connection open:
asyncio would wait up to 30 s for that client's TLS close_notify (the bridge took ~32 s to stop)."""

from __future__ import annotations

import ssl
import threading
from pathlib import Path
from typing import Any

import httpx

from pinchtab.cli import _tls_http_protocol
from tests.fixtures.harness import free_port
from tests.fixtures.tls import make_ca_and_cert


async def _app(scope: dict[str, Any], receive: Any, send: Any) -> None:
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200, "headers": [(b"content-type", b"text/plain")]})
    await send({"type": "http.response.body", "body": b"ok"})


def test_an_idle_keep_alive_tls_connection_does_not_hold_the_shutdown(tmp_path: Path) -> None:
    import uvicorn

    ca, cert, key = make_ca_and_cert(tmp_path)
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(_app, host="127.0.0.1", port=port, log_level="warning", lifespan="off",
                                           ssl_certfile=str(cert), ssl_keyfile=str(key), http=_tls_http_protocol()))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    with httpx.Client(base_url=f"https://127.0.0.1:{port}", verify=ssl.create_default_context(cafile=str(ca)),
                      trust_env=False) as client:
        for _ in range(200):
            if server.started:
                break
            thread.join(0.05)
        assert client.get("/").text == "ok"  # the connection stays in the client's pool, idle
        server.should_exit = True
        thread.join(10)  # 30 s without the protocol's abort
        assert not thread.is_alive(), "the server still waits for the idle TLS connection"
        try:
            client.get("/")
        except httpx.TransportError:
            pass  # the dropped connection, and no server behind the port any more
        else:
            raise AssertionError("the server still answers after its shutdown")
