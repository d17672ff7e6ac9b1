"""The wheel built from the tracked files, installed alone into a fresh venv (the Dockerfile's runtime
steps), serves a page end to end: a resource the wheel lacks (snapshot.js, ...) fails here, where an
editable install would hide it."""

from __future__ import annotations

import email
import json
import os
import shlex
import subprocess
import zipfile
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.fixtures.harness import free_port, wait_healthy
from tests.fixtures.wheel import ROOT, Install, build_wheel, install_wheel


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Install:
    work = tmp_path_factory.mktemp("wheel")
    return install_wheel(build_wheel(work), work / "venv")


def test_the_wheel_carries_every_resource_and_its_metadata(installed: Install) -> None:
    with zipfile.ZipFile(installed.wheel) as wheel:
        names = set(wheel.namelist())
        meta = email.message_from_bytes(wheel.read(next(n for n in names if n.endswith(".dist-info/METADATA"))))
    tracked = subprocess.run(["git", "-C", str(ROOT), "ls-files", "src/pinchtab"], capture_output=True, text=True,
                             check=True).stdout.split()
    resources = {n.removeprefix("src/") for n in tracked if not n.endswith(".py")}
    assert "pinchtab/browser/page/snapshot.js" in resources and "pinchtab/py.typed" in resources
    assert {"pinchtab/dashboard/static/index.html", "pinchtab/dashboard/static/app.js"} <= resources
    assert resources <= names, resources - names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert any(n.endswith("licenses/src/pinchtab/audit/vendor/axe-core-LICENSE.txt") for n in names)
    assert any(n.endswith("licenses/src/pinchtab/find/text/data/wordnet-3.0-LICENSE.txt") for n in names)
    assert "pinchtab/find/text/data/wordnet-3.0.tsv.gz" in names  # find's paraphrase table
    # axe-core (audits) is MPL-2.0; find's WordNet table is under Princeton's licence
    assert meta["License-Expression"] == "MIT AND MPL-2.0 AND LicenseRef-WordNet"
    assert meta["Author"] and meta["Keywords"] and "Typing :: Typed" in meta.get_all("Classifier")
    assert not meta.get_all("Provides-Extra"), "test tools belong in dependency groups, not extras"


def test_the_installed_package_is_the_wheels_and_its_dependencies_are_met(installed: Install) -> None:
    info = json.loads(installed.run(
        "import json, importlib.metadata as md, re, pinchtab; from importlib import resources\n"
        "def met(req):\n"
        "    try: md.version(re.match(r'[A-Za-z0-9_.-]+', req).group()); return True\n"
        "    except md.PackageNotFoundError: return False\n"
        "reqs = [r for r in md.requires('pinchtab') or [] if 'extra ==' not in r]\n"
        "print(json.dumps({'file': pinchtab.__file__, 'direct_url': md.distribution('pinchtab').read_text('direct_url.json'),"
        " 'unmet': [r for r in reqs if not met(r)], 'reqs': len(reqs),"
        " 'js': len(resources.files('pinchtab.browser.page').joinpath('snapshot.js').read_text())}))"))
    assert Path(info["file"]).is_relative_to(installed.prefix)
    assert '"editable": true' not in (info["direct_url"] or "")
    assert info["js"] > 1000
    assert info["reqs"] >= 10 and not info["unmet"]


def _dockerfile_runtime() -> tuple[list[str], list[str]]:
    """The runtime stage's CMD and HEALTHCHECK command (exec forms)."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    cmd = json.loads(next(line[4:] for line in text.splitlines() if line.startswith("CMD ")))
    health = next(line for line in text.splitlines() if line.startswith("HEALTHCHECK "))
    return cmd, json.loads(health[health.index(" CMD ") + 5:])


@pytest.fixture(scope="module")
def container_like(installed: Install, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, dict[str, str]]]:
    """The image's command with the wheel's install: ``pinchtab <CMD>`` with its data dir here, bound
    to loopback, on a free port; Chromium is left for the launcher to find."""
    data = tmp_path_factory.mktemp("data")
    cmd, _ = _dockerfile_runtime()
    args = [a.replace("/data", str(data)) for a in cmd]
    args[args.index("--bind") + 1] = "127.0.0.1"
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PINCHTAB_")}
    env.update(PINCHTAB_PORT=str(port), PINCHTAB_TOKEN="wheel-test-token", PINCHTAB_STATE_DIR=str(data / "state"),
               HOME=str(data), PATH=f"{installed.prefix / 'bin'}:{env.get('PATH', '')}")
    proc = subprocess.Popen([str(installed.pinchtab), *args], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, cwd=data)
    url = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(url, proc, timeout=60)
    except RuntimeError as exc:
        proc.kill()
        raise RuntimeError(f"{exc}: {proc.communicate(timeout=10)[1].decode(errors='replace')[-2000:]}") from exc
    yield url, env
    proc.terminate()
    try:
        proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def test_the_installed_bridge_navigates_snapshots_finds_and_clicks(
        container_like: tuple[str, dict[str, str]], installed: Install, pages: str) -> None:
    url, env = container_like
    with httpx.Client(base_url=url, timeout=60, headers={"Authorization": f"Bearer {env['PINCHTAB_TOKEN']}"},
                      trust_env=False) as http:
        nav = http.post("/navigate", json={"url": f"{pages}/buttons.html"})
        assert nav.status_code == 200, nav.text
        tab = nav.json()["tabId"]
        snap = http.get("/snapshot", params={"tabId": tab, "filter": "interactive", "format": "compact"})
        assert snap.status_code == 200 and 'button "Increment"' in snap.text, snap.text
        found = http.post("/find", json={"query": "increment button", "tabId": tab}).json()
        ref = found["best_ref"]
        assert f"{ref}:" in snap.text or f"[{ref}]" in snap.text or ref in snap.text
        click = http.post("/action", json={"kind": "click", "ref": ref, "tabId": tab})
        assert click.status_code == 200, click.text
        text = http.get("/text", params={"tabId": tab}).json()["text"]
        assert "Increment\n1" in text or "Increment 1" in text, text
    # The installed CLI reaches it, and the image's HEALTHCHECK command passes.
    out = subprocess.run([str(installed.pinchtab), "health"], env={**env, "PINCHTAB_SERVER": url},
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "status=ok" in out.stdout, out.stdout + out.stderr
    _, healthcheck = _dockerfile_runtime()
    assert healthcheck[0] == "python"
    probe = subprocess.run([str(installed.python), *healthcheck[1:]], env=env, capture_output=True, timeout=30)
    assert probe.returncode == 0, probe.stderr


def test_the_healthcheck_fails_when_nothing_serves(installed: Install) -> None:
    _, healthcheck = _dockerfile_runtime()
    env = {"PINCHTAB_PORT": str(free_port()), "PATH": os.environ.get("PATH", "")}
    probe = subprocess.run([str(installed.python), *healthcheck[1:]], env=env, capture_output=True, timeout=30)
    assert probe.returncode != 0, shlex.join(healthcheck)
