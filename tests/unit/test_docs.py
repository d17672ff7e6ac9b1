"""The docs site: generated references match their sources, the README stays a front page, and
nothing links outside the repository."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)[^)]*\)")


def _generator():
    spec = importlib.util.spec_from_file_location("gen_reference", ROOT / "scripts" / "gen_reference.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


GEN = _generator()


@pytest.mark.parametrize("name", sorted(GEN.PAGES))
def test_generated_reference_is_current(name: str) -> None:
    path = GEN.REFERENCE / name
    fresh = GEN.page_text(name)
    committed = path.read_text() if path.is_file() else ""
    assert committed == fresh, f"docs/reference/{name} is stale: run .venv/bin/{GEN.COMMAND} and commit it"


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
