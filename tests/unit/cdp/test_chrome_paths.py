"""Finding Chrome or Chromium on each platform, on fake file systems (tmp dirs standing for the home,
Program Files, Playwright's cache), and the install command the not-found message gives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from pinchtab.cdp import chrome_paths, launcher
from pinchtab.errors import BrowserError


def make_exe(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


@pytest.fixture()
def nowhere(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No browser on this machine's real paths, PATH or environment; the home is tmp_path/home."""
    home = tmp_path / "home"
    home.mkdir()
    real = launcher._executable
    monkeypatch.setattr(launcher, "_executable", lambda p: p.startswith(str(tmp_path)) and real(p))
    monkeypatch.setattr(launcher.shutil, "which", lambda name: None)
    for var in ("PINCHTAB_CHROME", "PLAYWRIGHT_BROWSERS_PATH", "XDG_CACHE_HOME", "LOCALAPPDATA"):
        monkeypatch.delenv(var, raising=False)
    monkeypatch.setattr(chrome_paths.Path, "home", staticmethod(lambda: home))
    return home


def test_linux_prefers_debians_real_binary_to_its_wrapper() -> None:
    paths = chrome_paths.candidates("linux", {}, Path("/home/u"))
    assert paths.index("/usr/lib/chromium/chromium") < paths.index("/usr/bin/chromium")
    assert "/usr/bin/google-chrome" in paths and "/snap/bin/chromium" in paths
    assert "/usr/lib64/chromium-browser/chromium-browser" in paths  # Fedora


def test_playwright_cache_newest_full_build_first_then_headless_shells(tmp_path: Path) -> None:
    cache = tmp_path / ".cache" / "ms-playwright"
    old = make_exe(cache / "chromium-1091" / "chrome-linux" / "chrome")
    new = make_exe(cache / "chromium-1148" / "chrome-linux" / "chrome")
    cft = make_exe(cache / "chromium-1200" / "chrome-linux64" / "chrome")
    shell = make_exe(cache / "chromium_headless_shell-1148" / "chrome-linux" / "headless_shell")
    assert chrome_paths.playwright_builds("linux", {}, tmp_path) == ([cft, new, old], [shell])


def test_playwright_browsers_path_and_xdg_cache(tmp_path: Path) -> None:
    custom = make_exe(tmp_path / "pw" / "chromium-1148" / "chrome-linux" / "chrome")
    assert chrome_paths.playwright_builds("linux", {"PLAYWRIGHT_BROWSERS_PATH": str(tmp_path / "pw")}, tmp_path) == ([custom], [])
    xdg = make_exe(tmp_path / "xdg" / "ms-playwright" / "chromium-1" / "chrome-linux" / "chrome")
    assert chrome_paths.playwright_builds("linux", {"XDG_CACHE_HOME": str(tmp_path / "xdg")}, tmp_path) == ([xdg], [])


def test_macos_app_bundles_and_playwright_cache(tmp_path: Path) -> None:
    paths = chrome_paths.candidates("darwin", {}, tmp_path)
    assert "/Applications/Chromium.app/Contents/MacOS/Chromium" in paths
    assert "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome" in paths
    assert ("/Applications/Google Chrome for Testing.app/Contents/MacOS/Google Chrome for Testing") in paths
    assert "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge" in paths
    assert str(tmp_path / "Applications/Chromium.app/Contents/MacOS/Chromium") in paths
    pw = make_exe(tmp_path / "Library/Caches/ms-playwright/chromium-1148/chrome-mac/Chromium.app/Contents/MacOS/Chromium")
    assert chrome_paths.candidates("darwin", {}, tmp_path)[-1] == pw


def test_windows_program_files_local_app_data_and_playwright(tmp_path: Path) -> None:
    env = {"PROGRAMFILES": str(tmp_path / "PF"), "PROGRAMFILES(X86)": str(tmp_path / "PF86"),
           "LOCALAPPDATA": str(tmp_path / "Local")}
    paths = chrome_paths.candidates("win32", env, tmp_path)
    assert os.path.join(env["PROGRAMFILES"], "Google", "Chrome", "Application", "chrome.exe") in paths
    assert os.path.join(env["LOCALAPPDATA"], "Google", "Chrome", "Application", "chrome.exe") in paths
    assert os.path.join(env["PROGRAMFILES(X86)"], "Microsoft", "Edge", "Application", "msedge.exe") in paths
    pw = make_exe(tmp_path / "Local" / "ms-playwright" / "chromium-1148" / "chrome-win" / "chrome.exe")
    assert chrome_paths.candidates("win32", env, tmp_path)[-1] == pw


def test_find_chrome_falls_back_to_playwrights_cache(nowhere: Path) -> None:
    pw = make_exe(nowhere / ".cache" / "ms-playwright" / "chromium-1148" / "chrome-linux" / "chrome")
    assert launcher.find_chrome() == pw


def test_a_headless_run_looks_for_a_headless_shell_first(tmp_path: Path) -> None:
    shells = chrome_paths.shell_candidates("linux", {}, tmp_path)
    assert shells[:2] == ["/usr/lib/chromium/chromium-headless-shell", "/usr/bin/chromium-headless-shell"]
    assert "/usr/lib/chromium/chromium-headless-shell" not in chrome_paths.candidates("linux", {}, tmp_path)
    cache = tmp_path / ".cache" / "ms-playwright"
    full = make_exe(cache / "chromium-1200" / "chrome-linux64" / "chrome")
    shell = make_exe(cache / "chromium_headless_shell-1200" / "chrome-headless-shell-linux64" / "chrome-headless-shell")
    assert chrome_paths.shell_candidates("linux", {}, tmp_path)[-1] == shell
    assert chrome_paths.candidates("linux", {}, tmp_path)[-2:] == [full, shell]  # a shell only as a last resort
    assert chrome_paths.shell_candidates("darwin", {}, tmp_path) == []  # no Playwright cache there


def test_a_shell_on_the_path_comes_before_an_installed_full_browser(nowhere: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    full = make_exe(nowhere / "opt" / "chrome")
    shell = make_exe(nowhere / "bin" / "chrome-headless-shell")
    monkeypatch.setattr(chrome_paths, "install_paths", lambda *a: [full])
    monkeypatch.setattr(launcher.shutil, "which", lambda name: shell if name == "chrome-headless-shell" else None)
    assert launcher.find_chrome(headless_shell=True) == shell
    assert launcher.find_chrome() == full


def test_the_config_picks_the_shell_only_for_a_headless_run(nowhere: Path) -> None:
    from pinchtab.config import load_config

    full = make_exe(nowhere / ".cache" / "ms-playwright" / "chromium-1148" / "chrome-linux" / "chrome")
    shell = make_exe(nowhere / ".cache" / "ms-playwright" / "chromium_headless_shell-1148" / "chrome-linux" / "headless_shell")
    assert launcher.browser_binary(load_config({}, environ={}).browser) == shell
    assert launcher.browser_binary(load_config({"browser": {"headless": False}}, environ={}).browser) == full
    assert launcher.browser_binary(load_config({"browser": {"headlessShell": False}}, environ={}).browser) == full
    mine = make_exe(nowhere / "bin" / "my-chrome")
    assert launcher.browser_binary(load_config({"browser": {"binary": mine}}, environ={}).browser) == mine


def test_configured_binary_and_env_come_first(nowhere: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    make_exe(nowhere / ".cache" / "ms-playwright" / "chromium-1148" / "chrome-linux" / "chrome")
    mine = make_exe(nowhere / "bin" / "my-chrome")
    env = make_exe(nowhere / "bin" / "env-chrome")
    monkeypatch.setenv("PINCHTAB_CHROME", env)
    assert launcher.find_chrome(mine) == mine
    assert launcher.find_chrome() == env
    monkeypatch.setenv("PINCHTAB_CHROME", str(nowhere / "missing"))
    with pytest.raises(BrowserError, match="PINCHTAB_CHROME is set to .*not an executable"):
        launcher.find_chrome()


def test_not_found_says_how_to_install_on_this_platform(nowhere: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chrome_paths, "_os_release", lambda path="": {"ID": "debian"})
    with pytest.raises(BrowserError) as err:
        launcher.find_chrome()
    assert err.value.code == "chrome_not_found"
    message = err.value.message
    assert "sudo apt-get install chromium" in message and "python -m playwright install chromium" in message
    assert "PINCHTAB_CHROME" in message and "bootstrap" not in message


@pytest.mark.parametrize("platform, release, command", [
    ("linux", {"ID": "debian"}, "sudo apt-get install chromium"),
    ("linux", {"ID": "ubuntu", "ID_LIKE": "debian"}, "sudo snap install chromium"),
    ("linux", {"ID": "linuxmint", "ID_LIKE": "ubuntu debian"}, "sudo snap install chromium"),
    ("linux", {"ID": "fedora"}, "sudo dnf install chromium"),
    ("linux", {"ID": "rocky", "ID_LIKE": "rhel centos fedora"}, "sudo dnf install chromium"),
    ("linux", {"ID": "arch"}, "sudo pacman -S chromium"),
    ("linux", {"ID": "alpine"}, "sudo apk add chromium"),
    ("linux", {"ID": "opensuse-tumbleweed", "ID_LIKE": "opensuse suse"}, "sudo zypper install chromium"),
    ("darwin", {}, "brew install --cask chromium"),
    ("win32", {}, "winget install Google.Chrome"),
])
def test_install_command_per_platform(platform: str, release: dict[str, str], command: str) -> None:
    assert chrome_paths.install_command(platform, release) == command
    assert command in chrome_paths.install_hint(platform, release)
