"""Where a Chrome or Chromium is installed on each platform, and how to install one when none is.

Searched in this order: the install paths of the platform (a system Chromium, then Google Chrome,
Chrome for Testing, Edge), then Playwright's browser cache (``PLAYWRIGHT_BROWSERS_PATH``, else
its default per platform; newest build first, a full Chromium before a headless shell), then the
``PATH``. For a headless run (``browser.headlessShell``) the headless shells come first: Chromium's
engine without the browser's UI layer, half the CPU per tab of the full browser in its headless mode
(bench/tab_cycle.py). ``find_chrome`` in :mod:`pinchtab.cdp.launcher` puts ``browser.binary`` and
``PINCHTAB_CHROME`` before all of them.
"""

from __future__ import annotations

import glob
import importlib.util
import os
import re
import sys
from collections.abc import Mapping
from pathlib import Path

# Debian's /usr/bin/chromium is a shell wrapper that adds flags; the real binary comes first.
LINUX_PATHS = (
    "/usr/lib/chromium/chromium",
    "/usr/lib/chromium-browser/chromium-browser",
    "/usr/lib64/chromium-browser/chromium-browser",  # Fedora
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
    "/usr/bin/google-chrome-stable",
    "/opt/google/chrome/chrome",
    "/usr/bin/microsoft-edge",
    "/opt/microsoft/msedge/msedge",
    "/snap/bin/chromium",
    "/var/lib/flatpak/exports/bin/org.chromium.Chromium",
)

# Headless shells installed by a package (Debian's chromium-headless-shell: the real binary, then
# its wrapper). Chrome for Testing's chrome-headless-shell comes as an archive: on the PATH.
LINUX_SHELL_PATHS = (
    "/usr/lib/chromium/chromium-headless-shell",
    "/usr/bin/chromium-headless-shell",
)

# App bundles, in /Applications and ~/Applications.
MAC_APPS = (
    "Chromium.app/Contents/MacOS/Chromium",
    "Google Chrome.app/Contents/MacOS/Google Chrome",
    "Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
    "Google Chrome Canary.app/Contents/MacOS/Google Chrome Canary",
    "Microsoft Edge.app/Contents/MacOS/Microsoft Edge",
)

# Below %ProgramFiles%, %ProgramFiles(x86)% and %LocalAppData%.
WINDOWS_APPS = (
    r"Google\Chrome\Application\chrome.exe",
    r"Chromium\Application\chrome.exe",
    r"Microsoft\Edge\Application\msedge.exe",
)

# Playwright's cache: chromium-<build>/<dir>/<binary>, chromium_headless_shell-<build>/... The
# directory names changed across Playwright releases (chrome-linux -> chrome-linux64, ...).
PLAYWRIGHT_BINARIES = {
    "linux": ("chrome-linux/chrome", "chrome-linux64/chrome",
              "chrome-linux/headless_shell", "chrome-headless-shell-linux64/chrome-headless-shell"),
    "darwin": ("chrome-mac/Chromium.app/Contents/MacOS/Chromium",
               "chrome-mac-arm64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
               "chrome-mac-x64/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing",
               "chrome-mac/headless_shell", "chrome-headless-shell-mac-arm64/chrome-headless-shell",
               "chrome-headless-shell-mac-x64/chrome-headless-shell"),
    "win32": (r"chrome-win\chrome.exe", r"chrome-win64\chrome.exe",
              r"chrome-win\headless_shell.exe", r"chrome-headless-shell-win64\chrome-headless-shell.exe"),
}

PATH_NAMES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome", "msedge")
SHELL_PATH_NAMES = ("chromium-headless-shell", "chrome-headless-shell", "headless_shell")


def platform_key(platform: str | None = None) -> str:
    """"linux", "darwin" or "win32" (other Unixes search like Linux)."""
    platform = platform or sys.platform
    return platform if platform in ("darwin", "win32") else "linux"


def playwright_cache(platform: str, environ: Mapping[str, str], home: Path) -> Path | None:
    """Where Playwright keeps its browsers here (``PLAYWRIGHT_BROWSERS_PATH`` first; "0" means
    inside the installed playwright package)."""
    custom = environ.get("PLAYWRIGHT_BROWSERS_PATH")
    if custom == "0":
        spec = importlib.util.find_spec("playwright")
        if spec is None or not spec.submodule_search_locations:
            return None
        return Path(list(spec.submodule_search_locations)[0]) / "driver" / "package" / ".local-browsers"
    if custom:
        return Path(custom).expanduser()
    if platform == "darwin":
        return home / "Library" / "Caches" / "ms-playwright"
    if platform == "win32":
        local = environ.get("LOCALAPPDATA")
        return Path(local) / "ms-playwright" if local else home / "AppData" / "Local" / "ms-playwright"
    return Path(environ.get("XDG_CACHE_HOME") or home / ".cache") / "ms-playwright"


def _build(path: str) -> int:
    match = re.search(r"chromium(?:_headless_shell)?-(\d+)", path)
    return int(match.group(1)) if match else 0


def playwright_builds(platform: str, environ: Mapping[str, str], home: Path) -> tuple[list[str], list[str]]:
    """The browsers in Playwright's cache: its full Chromium builds and its headless shells, each
    newest first."""
    root = playwright_cache(platform, environ, home)
    if root is None:
        return [], []
    sep = "\\" if platform == "win32" else "/"
    found: list[str] = []
    for prefix in ("chromium-", "chromium_headless_shell-"):
        for tail in PLAYWRIGHT_BINARIES[platform]:
            pattern = os.path.join(glob.escape(str(root)), prefix + "*", *tail.split(sep))
            found.extend(glob.glob(pattern))
    shell = [p for p in found if "headless_shell-" in p]
    full = [p for p in found if p not in shell]
    return sorted(full, key=_build, reverse=True), sorted(shell, key=_build, reverse=True)


def install_paths(platform: str, environ: Mapping[str, str], home: Path) -> list[str]:
    """The usual install locations of Chrome and Chromium on ``platform``."""
    if platform == "darwin":
        return [str(Path(root) / app) for app in MAC_APPS for root in ("/Applications", home / "Applications")]
    if platform == "win32":
        roots = [environ.get(v) for v in ("PROGRAMFILES", "PROGRAMFILES(X86)", "LOCALAPPDATA")]
        return [os.path.join(root, *app.split("\\")) for app in WINDOWS_APPS for root in roots if root]
    return list(LINUX_PATHS)


def candidates(platform: str | None = None, environ: Mapping[str, str] | None = None,
               home: Path | None = None) -> list[str]:
    """Every place searched for a browser on ``platform``, in order (the ``PATH`` aside): a
    headless shell of Playwright's only after every full browser."""
    key, environ, home = _where(platform, environ, home)
    full, shells = playwright_builds(key, environ, home)
    return install_paths(key, environ, home) + full + shells


def shell_candidates(platform: str | None = None, environ: Mapping[str, str] | None = None,
                     home: Path | None = None) -> list[str]:
    """The places searched first for a headless run's headless shell (``SHELL_PATH_NAMES`` on
    the ``PATH`` next, then everything ``candidates`` lists)."""
    key, environ, home = _where(platform, environ, home)
    installed = list(LINUX_SHELL_PATHS) if key == "linux" else []
    return installed + playwright_builds(key, environ, home)[1]


def _where(platform: str | None, environ: Mapping[str, str] | None,
           home: Path | None) -> tuple[str, Mapping[str, str], Path]:
    return platform_key(platform), os.environ if environ is None else environ, Path.home() if home is None else home


def _os_release(path: str = "/etc/os-release") -> dict[str, str]:
    out: dict[str, str] = {}
    try:
        with open(path, encoding="utf-8") as f:
            for line in f:
                key, _, value = line.strip().partition("=")
                if key:
                    out[key] = value.strip('"')
    except OSError:
        pass
    return out


def install_command(platform: str | None = None, os_release: Mapping[str, str] | None = None) -> str:
    """The command that installs Chromium on this machine's platform (its Linux distribution)."""
    key = platform_key(platform)
    if key == "darwin":
        return "brew install --cask chromium"
    if key == "win32":
        return "winget install Google.Chrome"
    release = _os_release() if os_release is None else os_release
    family = {release.get("ID", ""), *release.get("ID_LIKE", "").split()}
    if "ubuntu" in family:  # Ubuntu's chromium-browser deb only installs the snap
        return "sudo snap install chromium"
    if family & {"debian", "raspbian"}:
        return "sudo apt-get install chromium"
    if family & {"fedora", "rhel", "centos"}:
        return "sudo dnf install chromium"
    if family & {"arch", "manjaro"}:
        return "sudo pacman -S chromium"
    if "alpine" in family:
        return "sudo apk add chromium"
    if family & {"suse", "opensuse"}:
        return "sudo zypper install chromium"
    return "your package manager's chromium package"


def install_hint(platform: str | None = None, os_release: Mapping[str, str] | None = None) -> str:
    """What to do when no browser is found: this platform's install command, Playwright's
    (which needs no root), or pointing pinchtab at a binary."""
    return (f"install one with `{install_command(platform, os_release)}` (or, without root: "
            "`python -m pip install playwright && python -m playwright install chromium`), "
            "or set PINCHTAB_CHROME (config browser.binary) to a Chrome or Chromium binary")
