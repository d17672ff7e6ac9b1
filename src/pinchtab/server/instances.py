"""Instances: one ``pinchtab bridge`` subprocess each, with its own Chromium, port and profile.

Lifecycle: ``starting`` (process spawned, polling ``GET /health``) -> ``running`` -> ``stopping``
-> ``stopped``; ``error`` when the bridge exits on its own, cannot start, or reports its Chromium
down (``/health`` 503). A bridge whose Chromium comes back (it restarts it by itself) returns to
``running``; its old tabs are dropped from routing either way.

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
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pinchtab import logfile
from pinchtab.config import ENV_VARS, Config
from pinchtab.errors import BadRequest, Conflict, NotFound, NotReady, PinchtabError
from pinchtab.server import procs
from pinchtab.server.ports import PortAllocator
from pinchtab.server.profiles import ProfileStore, iso_now, new_id

if TYPE_CHECKING:
    import httpx

log = logging.getLogger("pinchtab.server")

MODES = ("headless", "headed")
DEFAULT_PROFILE = "default"
START_TIMEOUT = 60.0
STOP_TIMEOUT = 10.0
HEALTH_INTERVAL = 1.0
HEALTH_TIMEOUT = 3.0
HEALTH_FAILURES = 3  # consecutive unanswered /health before a live bridge counts as broken
TABS_POLL = 2.0  # how often the tabs (and URLs) of a running instance are noted, to reopen after a crash
PORT_RETRIES = 3
READY_POLL = 0.02  # seconds between health checks of a starting bridge, its first 5 s


def _http_error() -> type[Exception]:
    import httpx

    return httpx.HTTPError


def bridge_command() -> list[str]:
    """How to run ``pinchtab bridge`` with this interpreter."""
    if importlib.util.find_spec("pinchtab.__main__") is not None:
        return [sys.executable, "-m", "pinchtab", "bridge"]
    return [sys.executable, "-c", "from pinchtab.cli import main; main()", "bridge"]


@dataclass
class Instance:
    id: str
    profile_id: str | None
    profile_name: str | None
    profile_dir: str
    temporary: bool
    mode: str
    default: bool = False
    port: int | None = None
    status: str = "starting"
    pid: int | None = None
    started_at: str | None = None
    error: str | None = None
    tabs: int = 0
    restarts: int = 0
    last_death: str | None = None
    # Its bridge process, or the bridge this process serves (pinchtab.bridge.embedded.InProcessBridge).
    proc: Any = field(default=None, repr=False)
    ready: asyncio.Event = field(default_factory=asyncio.Event, repr=False)
    health_failures: int = 0
    log_path: Path | None = None
    log_offset: int = 0  # where this run of the bridge starts in its log
    config_path: Path | None = None
    # Supervision: crash restarts in a row, when it last came up, its tabs as last seen (id, url).
    crash_restarts: int = 0
    running_since: float = 0.0
    last_tabs: list[tuple[str, str]] = field(default_factory=list, repr=False)
    tabs_polled: float = 0.0
    _waiter: asyncio.Task[None] | None = field(default=None, repr=False)
    _expected_exit: bool = False
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # The bridge's own token when it is not the server's (an attached bridge; see attached.py).
    token: str | None = field(default=None, repr=False)
    # An external Chrome this instance's bridge drives over CDP instead of launching one (attached.py).
    cdp_url: str | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def process_alive(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "id": self.id,
            "profileId": self.profile_id,
            "profileName": self.profile_name,
            "port": self.port,
            "status": self.status,
            "mode": self.mode,
            "pid": self.pid,
            "startedAt": self.started_at,
            "tabs": self.tabs,
            "url": self.url if self.port else None,
        }
        if self.default:
            out["default"] = True
        if self.temporary:
            out["temporary"] = True
        if self.restarts:
            out["browserRestarts"] = self.restarts
        if self.crash_restarts:
            out["bridgeRestarts"] = self.crash_restarts
        if self.last_death:
            out["lastBrowserDeath"] = self.last_death
        if self.error:
            out["error"] = self.error
        if self.cdp_url:
            out.update(attached=True, attachType="cdp", cdpUrl=self.cdp_url)
        return out


class InstanceManager:
    def __init__(
        self,
        config: Config,
        profiles: ProfileStore,
        client: httpx.AsyncClient | Callable[[], httpx.AsyncClient],
        *,
        on_tabs_lost: Callable[[str], None] = lambda instance_id: None,
        on_bridge_exit: Callable[[Instance], bool] = lambda inst: False,
        embed_default: Callable[[dict[str, Any]], Any] | None = None,
    ) -> None:
        self.config = config
        self.profiles = profiles
        # A factory is called on first use: at start-up, after the default instance was spawned
        # (httpx and its TLS set-up are ~0.1 s that Chromium's launch need not wait for).
        self._client = client
        self.on_tabs_lost = on_tabs_lost
        # A bridge exited unasked: True when it will be restarted (its tabs then stay routed to it).
        self.on_bridge_exit = on_bridge_exit
        # Serves the default instance's bridge in this process (pinchtab.bridge.embedded.start, given
        # by pinchtab.cli when server.defaultInProcess applies); None: a process of its own.
        self.embed_default = embed_default
        self.state_dir = Path(config.server.state_dir).expanduser()
        self.ports = PortAllocator(config.server.instance_port_start, avoid=[config.server.port])
        self.instances: dict[str, Instance] = {}
        self.auth = {"authorization": f"Bearer {config.server.token}"} if config.server.token else {}
        self._monitor: asyncio.Task[None] | None = None
        self._closing = False

    @property
    def client(self) -> httpx.AsyncClient:
        if callable(self._client):
            self._client = self._client()
        return self._client  # type: ignore[return-value]

    def auth_for(self, inst: Instance) -> dict[str, str]:
        """The Authorization header the server sends to ``inst``'s bridge: its own token, if any."""
        return {"authorization": f"Bearer {inst.token}"} if inst.token else self.auth

    def auth_header(self, inst: Instance) -> list[tuple[bytes, bytes]]:
        return [(k.encode(), v.encode()) for k, v in self.auth_for(inst).items()]

    @property
    def closing(self) -> bool:
        return self._closing

    # -- queries --------------------------------------------------------------------------------

    def list(self) -> list[Instance]:
        return list(self.instances.values())

    def get(self, instance_id: str) -> Instance:
        inst = self.instances.get(instance_id)
        if inst is None:
            raise NotFound(f"instance {instance_id!r} not found; GET /instances lists them", "instance_not_found")
        return inst

    def running(self) -> list[Instance]:
        return [i for i in self.instances.values() if i.status == "running"]

    def live(self) -> list[Instance]:
        """Instances whose bridge process is up (running, or in error with its bridge still there)."""
        return [i for i in self.instances.values() if i.process_alive and i.status in ("running", "error")]

    def default_instance(self) -> Instance | None:
        """Where shorthand requests without a tabId go: the default instance while its bridge is up
        (or starting), else the oldest running instance."""
        for inst in self.instances.values():
            if inst.default and inst.status in ("starting", "running", "error") and (inst.process_alive or inst.status == "starting"):
                return inst
        running = self.running()
        return running[0] if running else None

    def using_profile(self, profile_id: str) -> Instance | None:
        for inst in self.instances.values():
            if inst.profile_id == profile_id and inst.status != "stopped":
                return inst
        return None

    # -- lifecycle ------------------------------------------------------------------------------

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

    def start_monitor(self) -> None:
        if self._monitor is None:
            self._monitor = asyncio.create_task(self._monitor_loop(), name="pinchtab-instance-monitor")

    async def start(self, profile_key: str | None = None, mode: str | None = None, *, default: bool = False, wait: bool = True) -> Instance:
        if self._closing:
            raise NotReady("the server is shutting down", "shutting_down")
        mode = mode or ("headless" if self.config.browser.headless else "headed")
        if mode not in MODES:
            raise BadRequest(f"mode must be 'headless' or 'headed', not {mode!r}", "invalid_mode")
        if profile_key:
            profile = self.profiles.get(profile_key)
            holder = self.using_profile(profile.id)
            if holder is not None:
                raise Conflict(
                    f"profile {profile.name!r} is already used by instance {holder.id} ({holder.status}); "
                    f"stop it with POST /instances/{holder.id}/stop or restart it with POST /instances/{holder.id}/restart",
                    "profile_in_use",
                )
            inst = Instance(id=self._new_id(), profile_id=profile.id, profile_name=profile.name,
                            profile_dir=profile.path, temporary=False, mode=mode, default=default)
        else:
            inst = Instance(id=self._new_id(), profile_id=None, profile_name=None, profile_dir="",
                            temporary=True, mode=mode, default=default)
        self.instances[inst.id] = inst
        try:
            await self._launch(inst, wait=wait)
        except PinchtabError:  # nothing was spawned (no free port, no executable): forget it
            self.instances.pop(inst.id, None)
            if inst.temporary and inst.profile_dir:
                shutil.rmtree(inst.profile_dir, ignore_errors=True)
            raise
        return inst

    async def start_default(self, *, wait: bool = True) -> Instance:
        profile = self.profiles.ensure(DEFAULT_PROFILE, "the default instance's profile")
        holder = self.using_profile(profile.id)
        if holder is not None:
            return holder
        return await self.start(profile.id, default=True, wait=wait)

    def _new_id(self) -> str:
        iid = new_id("inst")
        while iid in self.instances:
            iid = new_id("inst")
        return iid

    def _prepare(self, inst: Instance) -> None:
        inst.status = "starting"
        inst.error = None
        inst.ready.clear()
        inst.tabs = 0
        inst.restarts = 0
        inst.last_death = None
        inst.health_failures = 0
        if inst.temporary:
            tmp = self.state_dir / "tmp"
            tmp.mkdir(parents=True, exist_ok=True)
            inst.profile_dir = tempfile.mkdtemp(prefix=f"{inst.id}-", dir=tmp)
        else:
            Path(inst.profile_dir).mkdir(parents=True, exist_ok=True)

    async def _launch(self, inst: Instance, *, wait: bool) -> None:
        """Spawn the bridge now; wait until it answers (or fails) when ``wait``."""
        self._prepare(inst)
        tried: list[int] = []
        await self._spawn_on_free_port(inst, tried)
        task = asyncio.create_task(self._settle(inst, tried))
        if wait:
            await task

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
            try:
                res = await self.client.get(f"{inst.url}/health", headers=self.auth, timeout=HEALTH_TIMEOUT)
                body = res.json() if res.status_code == 200 else {}
                # Another process may answer on this port (a bridge still shutting down, another
                # server's instance); only our own child counts, and it will fail to bind.
                if res.status_code == 200 and body.get("pid", proc.pid) == proc.pid:
                    inst.tabs = int(body.get("tabs") or 0)
                    inst.status = "running"
                    inst.running_since = time.monotonic()
                    self._drop_config(inst)  # read at startup; the token should not linger on disk
                    inst.ready.set()
                    log.info("instance %s running on port %s", inst.id, inst.port)
                    return False
            except (_http_error(), ValueError):
                pass
            # Often at first (a refused connection is cheap, and a client may be waiting), then calmer.
            await asyncio.sleep(READY_POLL if time.monotonic() < deadline - START_TIMEOUT + 5 else 0.1)
        if inst.status != "starting":  # stopped meanwhile
            inst.ready.set()
            return False
        if proc.returncode is None:
            inst.error = f"the bridge did not answer /health within {START_TIMEOUT:.0f} s"
            await self._terminate(inst)
        else:
            if inst._waiter is not None:
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(asyncio.shield(inst._waiter), 2)
            tail = getattr(proc, "error", None) or self.log_tail(inst, 1)
            if "error while attempting to bind" in self.log_tail(inst, 20, joiner="\n"):
                return True
            inst.error = f"the bridge exited with code {proc.returncode} while starting: {tail}".strip()
        inst.status = "error"
        inst.ready.set()
        return False

    async def _watch_exit(self, inst: Instance, proc: Any) -> None:
        code = await proc.wait()
        if inst.proc is not proc or inst._expected_exit:
            return
        # The bridge went away on its own: its Chromium follows it (pipe closed); make sure.
        procs.kill_browsers_on(inst.profile_dir)
        inst.tabs = 0
        if inst.status == "starting":
            self.on_tabs_lost(inst.id)
            return  # _await_ready reports it
        inst.status = "error"
        inst.error = f"the bridge process exited with code {code}"
        tail = getattr(proc, "error", None) or self.log_tail(inst, 2)
        if tail:
            inst.error += f" (log: {tail})"
        if not self.on_bridge_exit(inst):
            self.on_tabs_lost(inst.id)
            inst.error += f"; restart it with POST /instances/{inst.id}/restart"
        log.error("instance %s: %s", inst.id, inst.error)

    def _drop_config(self, inst: Instance) -> None:
        if inst.config_path is not None:
            with contextlib.suppress(OSError):
                inst.config_path.unlink()

    def log_tail(self, inst: Instance, lines: int = 3, joiner: str = " | ") -> str:
        """The last lines the bridge logged; for error messages (the default ``joiner``) only
        the telling ones, shortened."""
        if inst.log_path is None:
            return ""
        try:
            with open(inst.log_path, "rb") as f:
                f.seek(inst.log_offset)
                text = f.read().decode(errors="replace").splitlines()
        except OSError:
            return ""
        if joiner != " | ":
            return joiner.join(text[-lines:])
        telling = [t.strip() for t in text if t.strip() and not t.startswith((" ", "Traceback", "ERROR:    Application startup failed"))]
        return joiner.join(telling[-lines:])[-600:]

    async def _terminate(self, inst: Instance) -> None:
        """SIGTERM the bridge (it closes its Chromium), then SIGKILL its group, then any browser
        still running on the instance's profile dir."""
        proc = inst.proc
        inst._expected_exit = True
        if proc is not None and proc.returncode is None and hasattr(proc, "stop"):
            await proc.stop(STOP_TIMEOUT)  # an in-process bridge: the server's own pid is no group to signal
        elif proc is not None and proc.returncode is None:
            procs.kill_group(proc.pid, signal.SIGTERM)
            try:
                await asyncio.wait_for(proc.wait(), STOP_TIMEOUT)
            except asyncio.TimeoutError:
                log.warning("instance %s: bridge ignored SIGTERM for %.0f s; killing it", inst.id, STOP_TIMEOUT)
                procs.kill_group(proc.pid, signal.SIGKILL)
                with contextlib.suppress(asyncio.TimeoutError):
                    await asyncio.wait_for(proc.wait(), 5)
        if inst.profile_dir:
            procs.kill_browsers_on(inst.profile_dir)

    async def stop(self, instance_id: str, *, remove: bool = True) -> Instance:
        inst = self.get(instance_id)
        async with inst._lock:
            await self._stop(inst)
        if remove:
            self.instances.pop(inst.id, None)
        return inst

    async def _stop(self, inst: Instance, *, keep_tabs: bool = False) -> None:
        inst.status = "stopping"
        if not keep_tabs:
            self.on_tabs_lost(inst.id)
        await self._terminate(inst)
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

    async def restart(self, instance_id: str, *, wait: bool = True, keep_tabs: bool = False) -> Instance:
        """Stop (if needed) and start again with the same id, port range, profile and mode.
        ``keep_tabs``: an automatic restart after a crash, whose tabs will be reopened."""
        inst = self.get(instance_id)
        if not inst.temporary and inst.profile_id is not None:
            self.profiles.get(inst.profile_id)  # 404 when the profile was deleted meanwhile
        async with inst._lock:
            if inst.status != "stopped":
                await self._stop(inst, keep_tabs=keep_tabs)
            self.instances[inst.id] = inst
            self._prepare(inst)
            tried: list[int] = []
            await self._spawn_on_free_port(inst, tried)
        task = asyncio.create_task(self._settle(inst, tried))
        if wait:
            await task
        return inst

    async def close(self) -> None:
        """Stop every instance (the server is shutting down)."""
        self._closing = True
        if self._monitor is not None:
            self._monitor.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._monitor
        await asyncio.gather(*(self.stop(i) for i in list(self.instances)), return_exceptions=True)

    async def wait_ready(self, inst: Instance, timeout: float = START_TIMEOUT) -> None:
        if inst.status == "starting":
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(inst.ready.wait(), timeout)

    # -- health ---------------------------------------------------------------------------------

    async def _monitor_loop(self) -> None:
        while True:
            await asyncio.sleep(HEALTH_INTERVAL)
            targets = [i for i in self.instances.values() if i.status in ("running", "error") and i.process_alive]
            if targets:
                await asyncio.gather(*(self.check(i) for i in targets), return_exceptions=True)

    async def check(self, inst: Instance) -> None:
        """One health check of a started instance; updates status, tab count and routing."""
        try:
            res = await self.client.get(f"{inst.url}/health", headers=self.auth_for(inst), timeout=HEALTH_TIMEOUT)
            body = res.json()
        except (_http_error(), ValueError) as exc:
            if inst.status not in ("running", "error") or not inst.process_alive:
                return
            inst.health_failures += 1
            if inst.health_failures >= HEALTH_FAILURES and inst.status == "running":
                # Frozen or overloaded: its tabs stay routed to it (503 until it answers again).
                inst.status = "error"
                inst.error = f"the bridge does not answer /health ({type(exc).__name__})"
                log.error("instance %s: %s", inst.id, inst.error)
            return
        if inst.status not in ("running", "error") or not inst.process_alive:
            return  # stopped or restarted while we asked
        inst.health_failures = 0
        restarts = int(body.get("restarts") or 0)
        inst.last_death = body.get("lastDeath") or inst.last_death
        # A new Chromium reopens the old tabs under their old ids (browser.restoreTabs).
        inst.restarts = restarts
        if res.status_code == 200 and body.get("status") == "ok":
            if inst.status == "error":
                log.warning("instance %s recovered (browser restarts: %s)", inst.id, restarts)
            inst.status = "running"
            inst.error = None
            inst.tabs = int(body.get("tabs") or 0)
            if time.monotonic() - inst.tabs_polled >= TABS_POLL:
                await self._poll_tabs(inst)
        else:
            if inst.status == "running":
                log.error("instance %s: browser down: %s", inst.id, body.get("lastDeath") or body)
            inst.status = "error"
            inst.tabs = 0
            inst.error = f"the instance's Chromium is down: {body.get('lastDeath') or body.get('error') or 'no detail'}"

    async def _poll_tabs(self, inst: Instance) -> None:
        from pinchtab.server.supervisor import tab_list

        inst.tabs_polled = time.monotonic()
        with contextlib.suppress(_http_error(), ValueError):
            res = await self.client.get(f"{inst.url}/tabs", headers=self.auth_for(inst), timeout=HEALTH_TIMEOUT)
            if res.status_code == 200:
                inst.last_tabs = tab_list(res.json())
