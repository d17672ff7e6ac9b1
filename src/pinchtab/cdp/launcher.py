"""Find and launch Chromium, with a CDP pipe, and stop it without leaving processes behind."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pinchtab.cdp.chrome_paths as chrome_paths
from pinchtab.errors import BrowserError

BASE_FLAGS = (
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-dev-shm-usage",
    "--disable-features=Translate,MediaRouter,OptimizationHints,AcceptCHFrame,BackForwardCache,WebUIOmniboxPopup,WebUIOmniboxAimPopup",
    "--disable-breakpad",
    "--metrics-recording-only",
    "--password-store=basic",
    "--use-mock-keychain",
    "--mute-audio",
    "--hide-scrollbars",
    "--enable-blink-features=ComputedAccessibilityInfo",
    "--window-size=1280,800",
)

# Lines Chromium prints on every headless start here; they never explain a failure.
_STDERR_NOISE = ("dbus", "DevTools listening", "Fontconfig", "gcm", "google_apis", "ALSA", "Floss", "bluez")

def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def find_chrome(configured: str | None = None, *, headless_shell: bool = False) -> str:
    """The browser binary: the configured one, then ``PINCHTAB_CHROME``, then the platform's
    install paths and Playwright's cache (:mod:`pinchtab.cdp.chrome_paths`), then the ``PATH``;
    with ``headless_shell``, a headless shell wherever one is before any full browser."""
    for candidate, source in ((configured, "browser.binary"), (os.environ.get("PINCHTAB_CHROME"), "PINCHTAB_CHROME")):
        if candidate:
            path = shutil.which(candidate) or candidate
            if _executable(path):
                return path
            raise BrowserError(f"{source} is set to {candidate!r}, which is not an executable file", "chrome_not_found")
    shells = [(chrome_paths.shell_candidates(), chrome_paths.SHELL_PATH_NAMES)] if headless_shell else []
    for paths, names in [*shells, (chrome_paths.candidates(), chrome_paths.PATH_NAMES)]:
        for path in paths:
            if _executable(path):
                return path
        for name in names:
            if found := shutil.which(name):
                return found
    raise BrowserError(f"No Chrome or Chromium found; {chrome_paths.install_hint()}", "chrome_not_found")


def browser_binary(browser: Any) -> str:
    """The binary a ``BrowserConfig`` launches: a headless shell first when it runs headless with
    ``headlessShell`` on (the default)."""
    return find_chrome(browser.binary, headless_shell=browser.headless and browser.headless_shell)


@dataclass
class ChromeProcess:
    """A running Chromium in its own process group, talking CDP over two pipes."""

    pid: int
    user_data_dir: Path
    temporary_profile: bool
    read_fd: int
    write_fd: int
    log_path: Path
    run_dir: Path
    exited: asyncio.Event = field(default_factory=asyncio.Event)
    returncode: int | None = None
    _pidfd: int | None = None

    @classmethod
    async def launch(
        cls,
        binary: str,
        *,
        headless: bool = True,
        user_data_dir: str | Path | None = None,
        extra_args: Sequence[str] = (),
    ) -> "ChromeProcess":
        proc = cls.spawn(binary, headless=headless, user_data_dir=user_data_dir, extra_args=extra_args)
        proc.watch_exit()
        return proc

    @classmethod
    def spawn(
        cls,
        binary: str,
        *,
        headless: bool = True,
        user_data_dir: str | Path | None = None,
        extra_args: Sequence[str] = (),
    ) -> "ChromeProcess":
        """Start Chromium; ``watch_exit`` must follow once an event loop runs (``launch`` does both)."""
        sweep_leftovers()
        temporary = user_data_dir is None
        # Everything of this run that is not the profile lives in one dir, removed on stop (and by
        # the next launch's sweep after a kill): its log, a temporary profile, and Chromium's own
        # temp files (org.chromium.Chromium.*, which TMPDIR points at).
        run_dir = Path(tempfile.mkdtemp(prefix=RUN_PREFIX))
        profile = run_dir / "profile" if temporary else Path(user_data_dir)  # type: ignore[arg-type]
        profile.mkdir(parents=True, exist_ok=True)
        log_path = run_dir / "chrome-stderr.log"
        (run_dir / "tmp").mkdir()
        env = {**os.environ, "TMPDIR": str(run_dir / "tmp")}
        args = [binary, *BASE_FLAGS, f"--user-data-dir={profile}", "--remote-debugging-pipe"]
        if headless:
            args.append("--headless")
        args.extend(extra_args)
        args.append("about:blank")

        # Chrome reads commands on fd 3 and writes replies on fd 4.
        to_chrome_r, to_chrome_w = os.pipe()
        from_chrome_r, from_chrome_w = os.pipe()
        log_fd = os.open(log_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        devnull = os.open(os.devnull, os.O_RDONLY)
        try:
            pid = os.posix_spawn(
                binary,
                args,
                env,
                file_actions=[
                    (os.POSIX_SPAWN_DUP2, devnull, 0),
                    (os.POSIX_SPAWN_DUP2, log_fd, 1),
                    (os.POSIX_SPAWN_DUP2, log_fd, 2),
                    (os.POSIX_SPAWN_DUP2, to_chrome_r, 3),
                    (os.POSIX_SPAWN_DUP2, from_chrome_w, 4),
                ],
                setpgroup=0,
            )
        except OSError as exc:
            for fd in (to_chrome_r, to_chrome_w, from_chrome_r, from_chrome_w):
                os.close(fd)
            shutil.rmtree(run_dir, ignore_errors=True)
            raise BrowserError(f"could not start {binary}: {exc}", "chrome_start_failed") from exc
        finally:
            os.close(log_fd)
            os.close(devnull)
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        for fd in (to_chrome_w, from_chrome_r):
            os.set_inheritable(fd, False)
        # Renamed into place: another launch's sweep must never read it empty (it took an empty
        # one for a dead Chromium's and removed the run dir, TMPDIR included, under a starting one).
        (run_dir / "pid.new").write_text(str(pid))
        os.replace(run_dir / "pid.new", run_dir / "pid")
        return cls(pid, profile, temporary, from_chrome_r, to_chrome_w, log_path, run_dir)

    def watch_exit(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            self._pidfd = os.pidfd_open(self.pid)
        except OSError:  # old kernels: poll instead
            loop.create_task(self._poll_exit())
            return
        loop.add_reader(self._pidfd, self._reap)

    def _reap(self) -> None:
        with contextlib.suppress(ChildProcessError):
            _, status = os.waitpid(self.pid, os.WNOHANG)
            self.returncode = os.waitstatus_to_exitcode(status) if status else 0
        if self._pidfd is not None:
            with contextlib.suppress(Exception):
                asyncio.get_running_loop().remove_reader(self._pidfd)
            os.close(self._pidfd)
            self._pidfd = None
        self.exited.set()

    async def _poll_exit(self) -> None:
        while not self.exited.is_set():
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:
                pid, status = self.pid, 0
            if pid:
                self.returncode = os.waitstatus_to_exitcode(status) if status else 0
                self.exited.set()
                return
            await asyncio.sleep(0.2)

    @property
    def alive(self) -> bool:
        return not self.exited.is_set()

    def stderr_tail(self, lines: int = 5) -> str:
        """The last lines Chromium wrote, without the noise it prints on every start."""
        try:
            text = self.log_path.read_text(errors="replace").strip().splitlines()
        except OSError:
            return ""
        useful = [t for t in text if not any(n in t for n in _STDERR_NOISE)]
        return " | ".join(useful[-lines:])

    def kill_group(self, sig: int = signal.SIGKILL) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, sig)

    def _group_alive(self) -> bool:
        try:
            os.killpg(self.pid, 0)
        except ProcessLookupError:
            return False
        except PermissionError:
            return True
        return True

    def _live_in_group(self, members: list[int] | None) -> list[int]:
        """The processes of its group that have not exited: all of /proc the first time, then only
        ``members`` (nothing joins the group once the browser is gone; the final SIGKILL of the
        group covers one that did). Zombies do not count: an orphan that exited waits for init to
        reap it, which some inits do late (a VM's took ~1.2 s), holding ``stop`` for nothing."""
        names = os.listdir("/proc") if members is None else [str(p) for p in members]
        live = []
        for name in names:
            if not name.isdigit():
                continue
            try:
                with open(f"/proc/{name}/stat", "rb") as f:
                    stat = f.read()
            except OSError:
                continue
            fields = stat[stat.rfind(b")") + 2 :].split()
            if len(fields) > 2 and fields[2] == str(self.pid).encode() and fields[0] not in (b"Z", b"X"):
                live.append(int(name))
        return live

    async def stop(self, timeout: float = 5.0) -> None:
        """Let the browser exit, SIGTERM it if it does not, then SIGKILL whatever is left of its
        process group; remove a temporary profile.

        Chromium exits by itself once its CDP pipe is closed (or after Browser.close), and then
        writes the profile: its network service commits the cookie store while the group drains.
        A SIGTERM, or killing the group early, loses cookies set since the last periodic commit.
        """
        if self.alive:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.exited.wait(), min(timeout, 3.0))
        if self.alive:
            self.kill_group(signal.SIGTERM)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.exited.wait(), timeout)
        deadline = time.monotonic() + timeout
        members: list[int] | None = None
        while self._group_alive() and time.monotonic() < deadline:
            members = self._live_in_group(members)
            if not members:
                break
            await asyncio.sleep(0.05)
        # Renderers and helpers share the group; make sure none outlives the browser.
        self.kill_group(signal.SIGKILL)
        if self.alive:
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.exited.wait(), 2.0)
        self.cleanup()

    def cleanup(self) -> None:
        # Chrome may still be flushing files for a moment after exit.
        for _ in range(3):
            shutil.rmtree(self.run_dir, ignore_errors=True)
            if not self.run_dir.exists():
                break
            time.sleep(0.05)


RUN_PREFIX = "pinchtab-chrome-run-"
# Made by earlier versions: a temporary profile dir, or a log beside a persistent profile.
_LEGACY_PREFIX = "pinchtab-chrome-"
LEGACY_LOG_AGE_S = 3600


def _pid_alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat[stat.rfind(")") + 2 : stat.rfind(")") + 3] not in ("Z", "X")


def _dirs_in_use() -> set[str]:
    """Every --user-data-dir of a live process (one pass over /proc)."""
    used: set[str] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            for arg in (entry / "cmdline").read_bytes().split(b"\0"):
                if arg.startswith(b"--user-data-dir="):
                    used.add(arg[16:].decode(errors="replace"))
    return used


def sweep_leftovers(root: str | None = None) -> list[str]:
    """Remove what killed runs left in the temp dir: run dirs whose Chromium is gone, legacy
    temporary profiles no process uses, legacy logs older than an hour. Answers what it removed."""
    base = Path(root or tempfile.gettempdir())
    removed: list[str] = []
    in_use: set[str] | None = None
    try:
        entries = list(base.iterdir())
    except OSError:
        return removed
    now = time.time()
    for entry in entries:
        name = entry.name
        if not name.startswith(_LEGACY_PREFIX):
            continue
        with contextlib.suppress(OSError, ValueError):
            if name.startswith(RUN_PREFIX) and entry.is_dir():
                pid_file = entry / "pid"
                pid = pid_file.read_text().strip() if pid_file.is_file() else ""
                if pid:
                    if _pid_alive(int(pid)):
                        continue
                elif now - entry.stat().st_mtime < 60:  # being set up right now (its pid not written yet)
                    continue
            elif entry.is_dir():
                if in_use is None:
                    in_use = _dirs_in_use()
                if str(entry) in in_use or os.path.realpath(entry) in in_use:
                    continue
            elif name.endswith(".log"):
                if now - entry.stat().st_mtime < LEGACY_LOG_AGE_S:
                    continue
            else:
                continue
            if entry.is_dir():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink()
            removed.append(str(entry))
    return removed
