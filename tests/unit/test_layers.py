"""Imports flow one way: HTTP/MCP/CLI -> routes -> browser/find -> CDP. Walks every module's
imports with ast: every import counts, those under ``if TYPE_CHECKING`` and inside functions too
(a circle hidden that way is still a circle of concerns)."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"

# package -> packages it must never import
FORBIDDEN = {
    "pinchtab.find": ("pinchtab.browser", "pinchtab.cdp", "pinchtab.bridge", "pinchtab.server", "pinchtab.api"),
    "pinchtab.cdp": ("pinchtab.browser", "pinchtab.find", "pinchtab.bridge", "pinchtab.server", "pinchtab.api"),
    "pinchtab.api": ("pinchtab.browser", "pinchtab.cdp", "pinchtab.find", "pinchtab.bridge", "pinchtab.server",
                     "pinchtab.mcp", "pinchtab.client"),
    "pinchtab.browser": ("pinchtab.bridge", "pinchtab.server", "pinchtab.mcp", "pinchtab.client", "pinchtab.cli"),
    "pinchtab.client": ("pinchtab.server", "pinchtab.browser", "pinchtab.bridge", "pinchtab.cdp", "pinchtab.mcp"),
    "pinchtab.mcp": ("pinchtab.server", "pinchtab.browser", "pinchtab.bridge", "pinchtab.cdp"),
    "pinchtab.server": ("pinchtab.browser", "pinchtab.bridge", "pinchtab.cdp", "pinchtab.find"),
    # report building and compare: pure, fed by the browser layer (collection) or the CLI (compare)
    "pinchtab.audit": ("pinchtab.browser", "pinchtab.cdp", "pinchtab.bridge", "pinchtab.server", "pinchtab.api",
                       "pinchtab.mcp", "pinchtab.client", "pinchtab.find"),
    "pinchtab.scrape": ("pinchtab.browser", "pinchtab.cdp", "pinchtab.bridge", "pinchtab.server", "pinchtab.api"),
    "pinchtab.dashboard": ("pinchtab.browser", "pinchtab.bridge", "pinchtab.cdp", "pinchtab.find", "pinchtab.mcp",
                           "pinchtab.client", "pinchtab.server"),
}


@cache  # each test walks every module: each is parsed once
def _imports(path: Path) -> frozenset[str]:
    tree = ast.parse(path.read_text())
    package = _module(path).split(".")[: -1 if path.name != "__init__.py" else None]
    names: set[str] = set()
    for node in _statements(tree.body):
        if isinstance(node, ast.ImportFrom):
            # relative imports ("from ..cdp import x") resolved against the module's package
            base = package[: len(package) - node.level + 1] if node.level else []
            module = ".".join([*base, node.module] if node.module else base)
            if node.module:  # "from . import lexical" imports the submodule, not its package
                names.add(module)
            names.update(f"{module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
    return frozenset(names)


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement, nested ones too (an import is a statement, and statements nest only in these
    lists): walking the expressions as well took ten times as long."""
    for stmt in body:
        yield stmt
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)
        for branch in (*getattr(stmt, "handlers", ()), *getattr(stmt, "cases", ())):
            yield from _statements(branch.body)


def _module(path: Path) -> str:
    return ".".join(path.relative_to(SRC).with_suffix("").parts).removesuffix(".__init__")


def test_no_module_imports_upward() -> None:
    wrong = []
    for path in (SRC / "pinchtab").rglob("*.py"):
        mod = _module(path)
        for package, banned in FORBIDDEN.items():
            if mod == package or mod.startswith(package + "."):
                wrong += [f"{mod} imports {name}" for name in _imports(path) if name.startswith(banned)]
    assert not wrong, "\n".join(sorted(wrong))


def test_models_import_no_other_package() -> None:
    """``pinchtab.models`` is the leaf every surface imports: it imports nothing else of pinchtab."""
    wrong = []
    for path in (SRC / "pinchtab" / "models").rglob("*.py"):
        wrong += [f"{_module(path)} imports {name}" for name in _imports(path)
                  if name.split(".")[0] == "pinchtab" and not name.startswith("pinchtab.models")]
    assert not wrong, "\n".join(sorted(wrong))


def test_no_import_cycles() -> None:
    modules = {_module(p): p for p in (SRC / "pinchtab").rglob("*.py")}
    graph = {m: {n for n in _imports(p) if n in modules and n != m and n != "pinchtab"} for m, p in modules.items()}
    state: dict[str, int] = {}

    def visit(m: str, trail: list[str]) -> None:
        state[m] = 1
        for n in graph[m]:
            assert state.get(n) != 1, "import cycle: " + " -> ".join(trail[trail.index(n):] + [n])
            if n not in state:
                visit(n, trail + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
