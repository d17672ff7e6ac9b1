"""Starting and stopping instances' bridges: processes, bridge config files, ports, readiness.

Every bridge runs in its own session (so a Ctrl-C on the server's terminal reaches the server
only, which then stops the bridges in order) and gets ``--parent-pid``: it shuts down when the
server dies, even by SIGKILL. Chromium talks to its bridge over ``--remote-debugging-pipe`` and
exits when the bridge is gone.

With ``server.defaultInProcess`` the default instance's bridge is served by this process instead
(pinchtab.bridge.embedded): same port, health checks and routing, no process of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import importlib.util
import json
import logging
import os
import shutil
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinchtab import logfile
from pinchtab.config import ENV_VARS, Config
from pinchtab.errors import NotReady, PinchtabError
from pinchtab.server import procs
from pinchtab.server.bridge_client import UpstreamError
from pinchtab.server.health import HEALTH_TIMEOUT, log_tail
from pinchtab.server.instance import Instance
from pinchtab.server.ports import PortAllocator
from pinchtab.server.profiles import iso_now

if TYPE_CHECKING:
    from pinchtab.server.upstream import Upstream

log = logging.getLogger("pinchtab.server")

START_TIMEOUT = 60.0
PORT_RETRIES = 3
READY_POLL = 0.02  # seconds between health checks of a starting bridge, its first 5 s


def bridge_command() -> list[str]:
    """How to run ``pinchtab bridge`` with this interpreter."""
    if importlib.util.find_spec("pinchtab.__main__") is not None:
        return [sys.executable, "-m", "pinchtab", "bridge"]
    return [sys.executable, "-c", "from pinchtab.cli import main; main()", "bridge"]


class Launcher:
    """Spawns, watches and stops the bridges of one registry.

    ``client`` gives the server's client to its bridges (made on first use); ``on_exit`` is called
    when a bridge exited unasked (``inst.status`` is still ``starting`` when it died starting);
    ``embed_default`` serves the default instance's bridge in this process (None: a process of its own).
    """

    def __init__(self, config: Config, client: Callable[[], Upstream], on_exit: Callable[[Instance], None],
                 embed_default: Callable[[dict[str, Any]], Any] | None = None) -> None:
        self.config = config
        self.client = client
        self.on_exit = on_exit
        self.embed_default = embed_default
        self.state_dir = Path(config.server.state_dir).expanduser()
        self.ports = PortAllocator(config.server.instance_port_start, avoid=[config.server.port])
        token = config.server.token
        self.auth = [(b"authorization", f"Bearer {token}".encode())] if token else []

    def sweep(self) -> None:
        """Leftovers of a server that was killed: temporary profiles no browser uses any more,
        bridge config files, logs older than a week."""
        for sub in ("tmp", "run"):
            folder = self.state_dir / sub
            if not folder.is_dir():
                continue
            for entry in folder.iterdir():
                if sub == "tmp" and entry.is_dir() and not procs.pids_using_dir(str(entry)):
                    shutil.rmtree(entry, ignore_errors=True)
                elif sub == "run" and entry.is_file() and time.time() - entry.stat().st_mtime > START_TIMEOUT * 2:
                    with contextlib.suppress(OSError):
                        entry.unlink()
        logs = self.state_dir / "logs"
        if logs.is_dir():
            for entry in logs.iterdir():
                with contextlib.suppress(OSError):
                    if time.time() - entry.stat().st_mtime > 7 * 86400:
                        entry.unlink()

    async def launch(self, inst: Instance) -> asyncio.Task[None]:
        """Spawn the bridge now; the task returned ends when it answers (or failed to start)."""
        self._prepare(inst)
        tried: list[int] = []
        await self._spawn_on_free_port(inst, tried)
        return asyncio.create_task(self._settle(inst, tried))

    def _prepare(self, inst: Instance) -> None:
        inst.status = "starting"
        inst.error = None
        inst.ready.clear()
        inst.tabs = 0
        inst.restarts = 0
        inst.last_death = None
        inst.health_failures = 0
        inst.kill_reason = None
        if inst.temporary:
            tmp = self.state_dir / "tmp"
            tmp.mkdir(parents=True, exist_ok=True)
            inst.profile_dir = tempfile.mkdtemp(prefix=f"{inst.id}-", dir=tmp)
        else:
            Path(inst.profile_dir).mkdir(parents=True, exist_ok=True)

    def _fail(self, inst: Instance, error: str) -> None:
        inst.status = "error"
        inst.error = error
        inst.ready.set()

    async def _spawn_on_free_port(self, inst: Instance, tried: list[int]) -> None:
        try:
            inst.port = self.ports.allocate(skip=tried)
        except PinchtabError as exc:
            self._fail(inst, exc.message)
            raise
        tried.append(inst.port)
        try:
            await self._spawn(inst)
        except OSError as exc:
            if self._in_process(inst) and exc.errno == errno.EADDRINUSE and len(tried) < PORT_RETRIES:
                self.ports.release(inst.port)
                log.warning("instance %s: port %s was taken; trying another", inst.id, inst.port)
                return await self._spawn_on_free_port(inst, tried)
            self.ports.release(inst.port)
            self._fail(inst, f"could not start the bridge: {exc}")
            raise NotReady(f"could not start the bridge: {exc}", "instance_start_failed") from exc

    async def _settle(self, inst: Instance, tried: list[int]) -> None:
        """Wait for the bridge to come up; another port when it lost a race for its port."""
        while await self._await_ready(inst):
            self.ports.release(inst.port)
            if len(tried) >= PORT_RETRIES:
                self._fail(inst, f"the bridge could not bind a port (tried {tried})")
                return
            log.warning("instance %s: port %s was taken; trying another", inst.id, inst.port)
            try:
                await self._spawn_on_free_port(inst, tried)
            except PinchtabError:
                return  # _fail said why

    def _in_process(self, inst: Instance) -> bool:
        return self.embed_default is not None and inst.default and inst.cdp_url is None

    async def _spawn(self, inst: Instance) -> None:
        if self.embed_default is not None and self._in_process(inst):
            inst.log_path = inst.config_path = None
            self._started(inst, self.embed_default(self._bridge_config(inst)), "in this process")
            return
        logs = self.state_dir / "logs"
        run = self.state_dir / "run"
        logs.mkdir(parents=True, exist_ok=True)
        run.mkdir(parents=True, exist_ok=True)
        inst.log_path = logs / f"{inst.id}.log"
        logfile.rotate(inst.log_path, self.config.server.log_max_bytes, self.config.server.log_backups)
        inst.config_path = run / f"{inst.id}.json"
        self._write_bridge_config(inst)
        cmd = [
            *bridge_command(),
            "--config", str(inst.config_path),
            "--port", str(inst.port),
            "--bind", "127.0.0.1",
            "--profile-dir", inst.profile_dir,
            "--parent-pid", str(os.getpid()),
            "--log-level", "warning",
        ]
        if inst.mode == "headed":
            cmd.append("--headed")
        # The bridge reads everything from the config file written above; variables that would
        # override it (PINCHTAB_PORT, PINCHTAB_TOKEN, ...) are not passed on.
        env = {k: v for k, v in os.environ.items() if k not in ENV_VARS and k != "PINCHTAB_CONFIG"}
        env["PYTHONUNBUFFERED"] = "1"
        with open(inst.log_path, "ab") as logf:
            inst.log_offset = logf.tell()
            inst.proc = await asyncio.create_subprocess_exec(
                *cmd, stdin=asyncio.subprocess.DEVNULL, stdout=logf, stderr=logf, env=env,
                start_new_session=True, close_fds=True,
            )
        self._started(inst, inst.proc, f"pid {inst.proc.pid}")

    def _started(self, inst: Instance, proc: Any, where: str) -> None:
        inst.proc = proc
        inst.pid = proc.pid
        inst.started_at = iso_now()
        inst._expected_exit = False
        inst._waiter = asyncio.create_task(self._watch_exit(inst, proc))
        log.info("instance %s: bridge %s on port %s (profile %s)", inst.id, where, inst.port, inst.profile_name or inst.profile_dir)

    def _bridge_config(self, inst: Instance) -> dict[str, Any]:
        """The server's effective config with this instance's own values: port, loopback bind,
        profile dir, mode, and the external Chrome's cdpUrl of an attached one (else it launches its own)."""
        data = self.config.model_dump(by_alias=True)
        data["server"].update(port=inst.port, bind="127.0.0.1", token=self.config.server.token, defaultInstance=False)
        data["browser"].update(profileDir=inst.profile_dir, cdpUrl=inst.cdp_url, headless=inst.mode == "headless")
        return data

    def _write_bridge_config(self, inst: Instance) -> None:
        data = self._bridge_config(inst)
        assert inst.config_path is not None
        fd = os.open(inst.config_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as f:
            json.dump(data, f)

    async def _await_ready(self, inst: Instance) -> bool:
        """Poll /health until the bridge answers; True when it died of a taken port (retry)."""
        proc = inst.proc
        assert proc is not None
        deadline = time.monotonic() + START_TIMEOUT
        while time.monotonic() < deadline:
            if proc.returncode is not None or inst.status != "starting":
                break
            with contextlib.suppress(UpstreamError, ValueError):
                status, body = await self.client().get_json(inst.url, "/health", self.auth, HEALTH_TIMEOUT)
                # Another process may answer on this port (a bridge still shutting down, another
                # server's instance); only our own child counts, and it will fail to bind.
                if status == 200 and isinstance(body, dict) and body.get("pid", proc.pid) == proc.pid:
                    inst.tabs = int(body.get("tabs") or 0)
                    inst.status = "running"
                    inst.running_since = time.monotonic()
                    self._drop_config(inst)  # read at startup; the token should not linger on disk
                    inst.ready.set()
                    log.info("instance %s running on port %s", inst.id, inst.port)
                    return False
            # Often at first (a refused connection is cheap, and a client may be waiting), then calmer.
            await asyncio.sleep(READY_POLL if time.monotonic() < deadline - START_TIMEOUT + 5 else 0.1)
        if inst.status != "starting":  # stopped meanwhile
            inst.ready.set()
            return False
        if proc.returncode is None:
            inst.error = f"the bridge did not answer /health within {START_TIMEOUT:.0f} s"
            await self.terminate(inst)
        else:
            if inst._waiter is not None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(asyncio.shield(inst._waiter), 2)
            tail = getattr(proc, "error", None) or log_tail(inst, 1)
            if "error while attempting to bind" in log_tail(inst, 20, joiner="\n"):
                return True
            inst.error = f"the bridge exited with code {proc.returncode} while starting: {tail}".strip()
        inst.status = "error"
        inst.ready.set()
        return False

    async def _watch_exit(self, inst: Instance, proc: Any) -> None:
        code = await proc.wait()
        if inst.proc is not proc or inst._expected_exit:
            return
        # The bridge went away on its own (or frozen, killed by the monitor): its Chromium follows
        # it (pipe closed); make sure.
        procs.kill_browsers_on(inst.profile_dir)
        inst.tabs = 0
        if inst.status != "starting":  # a bridge that died starting: _await_ready reports it
            inst.status = "error"
            if inst.kill_reason:
                inst.error = f"{inst.kill_reason} (exit code {code})"
            else:
                inst.error = f"the bridge process exited with code {code}"
                tail = getattr(proc, "error", None) or log_tail(inst, 2)
                if tail:
                    inst.error += f" (log: {tail})"
        self.on_exit(inst)

    def _drop_config(self, inst: Instance) -> None:
        if inst.config_path is not None:
            with contextlib.suppress(OSError):
                inst.config_path.unlink()

    async def terminate(self, inst: Instance) -> None:
        """SIGTERM the bridge (it closes its Chromium), then SIGKILL its group after
        ``instances.stopGraceSec``, then any browser still running on the instance's profile dir."""
        proc = inst.proc
        inst._expected_exit = True
        grace = self.config.instances.stop_grace_sec
        if proc is not None and proc.returncode is None and hasattr(proc, "stop"):
            await proc.stop(grace)  # an in-process bridge: the server's own pid is no group to signal
        elif proc is not None:
            await self._end_group(inst, proc)
        if inst.profile_dir:
            procs.kill_browsers_on(inst.profile_dir)

    async def kill_frozen(self, inst: Instance) -> None:
        """End a bridge that stopped answering (``inst.kill_reason`` says why) as an exit of its
        own: the exit watcher reports it and the supervisor restarts it."""
        proc = inst.proc
        if proc is not None and not hasattr(proc, "stop"):
            await self._end_group(inst, proc)

    async def _end_group(self, inst: Instance, proc: Any) -> None:
        """SIGTERM the bridge's process group; SIGKILL when it is still there after the grace period
        (a blocked event loop never runs its SIGTERM handler)."""
        if proc.returncode is not None:
            return
        grace = self.config.instances.stop_grace_sec
        procs.kill_group(proc.pid, signal.SIGTERM)
        try:
            await asyncio.wait_for(asyncio.shield(proc.wait()), grace)
        except asyncio.TimeoutError:
            log.warning("instance %s: bridge ignored SIGTERM for %g s; killing it", inst.id, grace)
            procs.kill_group(proc.pid, signal.SIGKILL)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(asyncio.shield(proc.wait()), 5)

    async def stop(self, inst: Instance) -> None:
        """Stop the bridge and clean up after it: its port, config file, temporary profile, and
        its log unless it ended in an error."""
        inst.status = "stopping"
        await self.terminate(inst)
        self.ports.release(inst.port)
        self._drop_config(inst)
        if inst.temporary and inst.profile_dir:
            shutil.rmtree(inst.profile_dir, ignore_errors=True)
        if inst.log_path is not None and inst.error is None:
            with contextlib.suppress(OSError):
                inst.log_path.unlink()
        inst.status = "stopped"
        inst.tabs = 0
        inst.pid = None
        inst.ready.set()
        log.info("instance %s stopped", inst.id)
