"""The first milliseconds of ``pinchtab mcp``, before click, pydantic and the MCP SDK load (the SDK
alone takes 0.7-1.7 s to import on a small machine).

``begin()`` runs at the top of ``pinchtab.cli`` when the command is ``mcp``. It uses the standard
library only, and

1. starts a local ``pinchtab server`` at once when the command may auto-start one and nothing
   listens on the configured port, so the server, its bridge and Chromium start while the SDK
   loads (the server itself exits quietly if it finds one running: see ``--autostarted``);
2. answers the client's ``initialize`` itself, within milliseconds of the spawn. The SDK still
   sees every message: stdin reaches it through a pipe, that ``initialize`` included, and its own
   answer to it is compared with ours (a difference is reported on stderr) and not sent twice.

Everything after ``initialize`` is the SDK's. Only a first message that is a well-formed
``initialize`` request is answered early; anything else waits for the SDK as before.
"""

from __future__ import annotations

import gc
import json
import os
import socket
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pinchtab

# What the SDK (mcp_types.version.HANDSHAKE_PROTOCOL_VERSIONS) negotiates through `initialize`;
# tests/unit/mcp/test_early.py keeps this and the whole answer equal to the SDK's own.
HANDSHAKE_VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")
CAPABILITIES = {"prompts": {"listChanged": False}, "resources": {"listChanged": False, "subscribe": False},
                "tools": {"listChanged": False}}
NAME, TITLE = "pinchtab", "PinchTab"

INSTRUCTIONS = """\
PinchTab drives a real Chromium browser. The usual loop: pinchtab_navigate to a URL, then
pinchtab_snapshot (interactive=true, compact=true uses the fewest tokens) or pinchtab_find to get
element refs such as e5, then act on a ref with pinchtab_click, pinchtab_type, pinchtab_fill,
pinchtab_select or pinchtab_press. Refs come from the latest snapshot of that tab: take a new
snapshot after the page changes. pinchtab_get_text reads the page; pinchtab_screenshot shows it.
""".replace("\n", " ").strip()

_END = b"\x00pinchtab-early-end\n"  # written to our own stdout pipe after the SDK is done

# The server process begin() started (None when it started none); pinchtab.mcp.cli adopts it.
server_proc: subprocess.Popen[bytes] | None = None
stdio: EarlyStdio | None = None


def initialize_result(requested: str) -> dict[str, Any]:
    """The ``InitializeResult`` the SDK answers for a client asking for protocol ``requested``."""
    return {
        "capabilities": CAPABILITIES,
        "instructions": INSTRUCTIONS,
        "protocolVersion": requested if requested in HANDSHAKE_VERSIONS else HANDSHAKE_VERSIONS[-1],
        "serverInfo": {"name": NAME, "title": TITLE, "version": pinchtab.__version__},
    }


def _initialize_request(msg: Any) -> bool:
    """Is ``msg`` an ``initialize`` request whose params the SDK accepts as they are?"""
    if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0" or msg.get("method") != "initialize":
        return False
    if not isinstance(msg.get("id"), (str, int)) or isinstance(msg.get("id"), bool):
        return False
    params = msg.get("params")
    if not isinstance(params, dict) or not isinstance(params.get("protocolVersion"), str):
        return False
    info = params.get("clientInfo")
    return (isinstance(params.get("capabilities"), dict) and isinstance(info, dict)
            and isinstance(info.get("name"), str) and isinstance(info.get("version"), str))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class EarlyStdio:
    """Stands between the client's pipes and the SDK's stdio transport.

    fd 0 and fd 1 become pipes of ours (the SDK claims them as usual); one thread copies the
    client's lines to the SDK and answers the first ``initialize``, another copies the SDK's lines
    to the client, less its answer to that ``initialize``.
    """

    def __init__(self) -> None:
        self.wire_in = os.dup(0)
        self.wire_out = os.dup(1)
        in_r, self.to_sdk = os.pipe()
        self.from_sdk, out_w = os.pipe()
        os.dup2(in_r, 0)
        os.dup2(out_w, 1)
        os.close(in_r)
        os.close(out_w)
        self.lock = threading.Lock()
        self.early: tuple[Any, dict[str, Any]] | None = None  # (id, result) of the initialize we answered
        self.ready = threading.Event()  # set once the first message was handled
        self.pump_out = threading.Thread(target=self._copy_out, name="pinchtab-mcp-out", daemon=True)
        threading.Thread(target=self._copy_in, name="pinchtab-mcp-in", daemon=True).start()
        self.pump_out.start()

    def _send(self, data: bytes) -> None:
        with self.lock:
            _write_all(self.wire_out, data)

    def _copy_in(self) -> None:
        first = True
        with os.fdopen(self.wire_in, "rb") as wire:
            for line in wire:
                if first:
                    first = False
                    self._maybe_answer(line)
                    self.ready.set()
                try:
                    _write_all(self.to_sdk, line)
                except OSError:
                    break
        self.ready.set()
        os.close(self.to_sdk)  # EOF for the SDK

    def _maybe_answer(self, line: bytes) -> None:
        try:
            msg = json.loads(line)
        except ValueError:
            return
        if _initialize_request(msg):
            result = initialize_result(msg["params"]["protocolVersion"])
            self.early = (msg["id"], result)
            self._send(json.dumps({"jsonrpc": "2.0", "id": msg["id"], "result": result}).encode() + b"\n")

    def _copy_out(self) -> None:
        self.ready.wait()
        dropped = self.early is None
        with os.fdopen(self.from_sdk, "rb") as sdk:
            for line in sdk:
                if line == _END:
                    return
                try:
                    msg = json.loads(line)
                except ValueError:
                    msg = None
                if not isinstance(msg, dict) or msg.get("jsonrpc") != "2.0":
                    sys.stderr.buffer.write(line)  # stray output: never onto the wire
                    sys.stderr.flush()
                    continue
                if not dropped and self.early is not None and msg.get("id") == self.early[0] and "method" not in msg:
                    dropped = True
                    if msg.get("result") != self.early[1]:
                        print(f"pinchtab mcp: the SDK's initialize answer {msg!r} differs from the one sent "
                              f"early {self.early[1]!r}", file=sys.stderr, flush=True)
                    continue
                self._send(line)

    def finish(self, timeout: float = 5.0) -> None:
        """After the SDK is done: send what it wrote last, then stop copying."""
        try:
            sys.stdout.flush()
            _write_all(1, _END)
        except (OSError, ValueError):
            return
        self.pump_out.join(timeout)


# -- starting the server ----------------------------------------------------------------------------

def _option(argv: list[str], name: str) -> str | None:
    for i, arg in enumerate(argv):
        if arg == name and i + 1 < len(argv):
            return argv[i + 1]
        if arg.startswith(name + "="):
            return arg.split("=", 1)[1]
    return None


def guess_port(environ: dict[str, str] | os._Environ[str] = os.environ) -> int | None:
    """The configured server port as ``pinchtab.config`` resolves it (``PINCHTAB_PORT``, else the
    config file's ``server.port``, else 9867), or None when that takes more than a glance (a broken
    file): then the normal start-up path decides, a little later."""
    try:
        if environ.get("PINCHTAB_PORT"):
            return int(environ["PINCHTAB_PORT"])
        path = Path(environ.get("PINCHTAB_CONFIG") or Path.home() / ".pinchtab" / "config.json")
        if not path.is_file():
            return 9867
        port = (json.loads(path.read_text() or "{}").get("server") or {}).get("port", 9867)
        return port if isinstance(port, int) else None
    except (OSError, ValueError, AttributeError):
        return None


def _listening(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.5):
            return True
    except OSError:
        return False


def start_server(argv: list[str]) -> subprocess.Popen[bytes] | None:
    """Start ``pinchtab server --autostarted`` now, when ``pinchtab mcp`` would auto-start one
    later and nothing listens on the configured port."""
    if "--no-autostart" in argv or _option(argv, "--server") or os.environ.get("PINCHTAB_SERVER"):
        return None
    port = guess_port()
    if port is None or _listening(port):
        return None
    env = dict(os.environ)
    token = _option(argv, "--token")
    if token:
        env["PINCHTAB_TOKEN"] = token
    try:
        return subprocess.Popen(
            [sys.executable, "-m", "pinchtab", "server", "--autostarted"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
            start_new_session=True, close_fds=True,
        )
    except OSError:
        return None  # the normal path tries again and reports why


def applies(argv: list[str]) -> bool:
    """Does ``pinchtab mcp ARGV`` serve MCP on stdio (not ``--help``, not another transport)?"""
    return "--help" not in argv and "-h" not in argv and _option(argv, "--transport") in (None, "stdio")


def begin(argv: list[str]) -> None:
    """``pinchtab mcp ARGV``: start the server and take over stdio."""
    global server_proc, stdio
    if not applies(argv) or stdio is not None:
        return
    # The imports ahead (click, pydantic, the SDK) make ~1 s of objects that all live on; collecting
    # cycles among them costs ~6% of that CPU. pinchtab.mcp.cli turns the collector back on.
    gc.disable()
    server_proc = start_server(argv)
    stdio = EarlyStdio()
