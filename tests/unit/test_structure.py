"""The shape of the package stays easy to find one's way in: no module past 600 lines, no package
folder past 20 modules (a sign to split by concern), no client method attached at run time."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "pinchtab"
MAX_LINES = 600
MAX_MODULES = 20


def test_no_module_is_too_long() -> None:
    long = [f"{p.relative_to(PACKAGE)}: {n} lines" for p in PACKAGE.rglob("*.py")
            if (n := len(p.read_text().splitlines())) > MAX_LINES]
    assert not long, "split these by concern:\n" + "\n".join(long)


def test_no_folder_holds_too_many_modules() -> None:
    crowded = [f"{d.relative_to(PACKAGE.parent)}: {n} modules" for d in [PACKAGE, *PACKAGE.rglob("*")]
               if d.is_dir() and d.name != "__pycache__" and (n := len(list(d.glob("*.py")))) > MAX_MODULES]
    assert not crowded, "split these into sub-packages:\n" + "\n".join(crowded)
