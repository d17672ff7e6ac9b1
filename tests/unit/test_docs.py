"""The docs site: generated references match their sources, the README stays a front page, and
nothing links outside the repository."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)[^)]*\)")


def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "scripts" / "gen_reference.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()
STALE = "stale: docs/reference/{}; run " + GEN.COMMAND


# In this process: what these pages read (the route table, the MCP tools, the config model) is
# already imported here, where a process of their own would import it all again (~3 s of CPU).
@pytest.mark.parametrize("page", [name for name in GEN.PAGES if name != "cli.md"])
def test_generated_reference_is_current(page: str) -> None:
    path = GEN.REFERENCE / page
    assert path.is_file() and path.read_text() == GEN.page_text(page), STALE.format(page)


def test_generated_cli_reference_is_current() -> None:
    # In a process of its own: a test before this one may have changed what the generator reads
    # (click caches a command's --help option from the first context that asked for it).
    code = "import sys; sys.path.insert(0, 'scripts'); import gen_reference; sys.stdout.write(gen_reference.page_text('cli.md'))"
    res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert res.returncode == 0, res.stderr
    assert res.stdout == (GEN.REFERENCE / "cli.md").read_text(), STALE.format("cli.md")


def test_readme_is_a_front_page() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= 300, f"README.md has {len(lines)} lines; the manual belongs in docs/"


def _markdown_files() -> list[Path]:
    return [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


@pytest.mark.parametrize("page", _markdown_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_links_stay_inside_the_repository(page: Path) -> None:
    for target in LINK.findall(page.read_text()):
        if target.startswith("#"):
            continue
        assert "://" not in target and not target.startswith("mailto:"), f"{page.name} links outside: {target}"
        resolved = (page.parent / target.split("#")[0]).resolve()
        assert resolved.is_relative_to(ROOT), f"{page.name} links outside the repository: {target}"
        assert resolved.exists(), f"{page.name} links to a missing file: {target}"
