"""Accuracy of find on real third-party web applications (prints figures; not a test).

    .venv/bin/python bench/find_apps_accuracy.py --python /path/to/venv-with-apps/bin/python [--app NAME] [-v]
    .venv/bin/python bench/find_apps_accuracy.py --python ... --show django_admin:user-change   # the page's elements

Each folder of ``tests/fixtures/find_apps/`` is one application installed from PyPI (the
``find-apps`` dependency group): ``app.py`` starts it with seeded data (``python app.py PORT``)
and ``pages.json`` lists pages of it, each with the queries people would type and the element
each one means (a CSS selector, ``null`` for a query that should match nothing). The apps run
in the interpreter given by ``--python`` (their dependencies are heavy and stay out of the
project's own environment); the pages are opened in a headless Chromium driven in-process and
scored exactly like ``bench/find_pages_accuracy.py`` scores static pages (full snapshot, the
index ``/find`` builds, P@1 and MRR), whose report this reuses.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "bench"))

from find_pages_accuracy import describe, report, score_queries  # noqa: E402
from pinchtab.browser.core.browser import Browser  # noqa: E402
from pinchtab.browser.page import snapshot  # noqa: E402
from pinchtab.config import load_config  # noqa: E402

APPS = ROOT / "tests" / "fixtures" / "find_apps"

# "deep:SELECTOR" finds the first match in the document or any shadow root under it, and
# "deep:HOST >>> INNER" the first INNER under the first HOST (web-component apps such as Panel
# render every widget inside a shadow root of its own).
DEEP_JS = r"""
function deepIn(start, sel) {
  const roots = [start];
  while (roots.length) {
    const root = roots.shift();
    const hit = root.querySelector(sel);
    if (hit) return hit;
    for (const el of root.querySelectorAll('*')) if (el.shadowRoot) roots.push(el.shadowRoot);
  }
  return null;
}
function deepQuery(sel) {
  try {
    if (!sel.startsWith('deep:')) return document.querySelector(sel);
    let hit = null;
    for (const part of sel.slice(5).split('>>>')) {
      hit = deepIn(hit ? (hit.shadowRoot || hit) : document, part.trim());
      if (!hit) return null;
    }
    return hit;
  } catch (e) { return null; }
}
"""
RESOLVE_JS = "(sels) => {" + DEEP_JS + " return sels.map(deepQuery); }"
WAIT_JS = "(sel) => {" + DEEP_JS + " return !!deepQuery(sel); }"
OUTER_JS = "(sel) => {" + DEEP_JS + " const e = deepQuery(sel); return e ? e.outerHTML.slice(0, 1500) : null; }"
_SERIALIZATION = {"serialization": "deep", "maxDepth": 1,
                  "additionalParameters": {"maxNodeDepth": 0, "includeShadowTree": "none"}}
CLICK_JS = r"""(sel) => { const el = document.querySelector(sel); if (el) el.click(); return !!el; }"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_app(python: str, app_dir: Path, first_path: str) -> tuple[subprocess.Popen, str]:
    port = free_port()
    proc = subprocess.Popen([python, str(app_dir / "app.py"), str(port)], cwd=app_dir,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"{app_dir.name} exited: {proc.stderr.read().decode()[-2000:]}")
        try:
            with urllib.request.urlopen(base + first_path, timeout=5) as r:
                if r.status < 500:
                    return proc, base
        except Exception:
            time.sleep(0.5)
    proc.kill()
    raise RuntimeError(f"{app_dir.name} did not answer on {base} within 180 s")


async def wait_for(tab, selector: str, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if await tab.eval_in_world(WAIT_JS, selector):
            return
        await asyncio.sleep(0.2)
    raise RuntimeError(f"{selector!r} did not appear")


async def resolve_backend_ids(tab, selectors: list[str]) -> list[int | None]:
    res = await tab.call_in_world(RESOLVE_JS, selectors, serialization=_SERIALIZATION)
    items = (res.get("deepSerializedValue") or {}).get("value") or []
    return [(item.get("value") or {}).get("backendNodeId") if item.get("type") == "node" else None for item in items]


async def open_page(tab, base: str, page: dict) -> None:
    await tab.navigate(base + page["path"], timeout_ms=30000)
    if page.get("ready"):
        await wait_for(tab, page["ready"])
    for sel in page.get("click", []):
        await tab.eval_in_world(CLICK_JS, sel)
        await asyncio.sleep(0.3)
    if page.get("settle_ms"):
        await asyncio.sleep(page["settle_ms"] / 1000)


async def evaluate(python: str, only: str | None, show: str | None, html: list[str],
                   dump: Path | None = None) -> list[dict]:
    results: list[dict] = []
    browser = Browser(load_config(environ={}))
    await browser.start()
    try:
        async with browser.use_tab(None, create=True) as tab:
            for app_dir in sorted(p for p in APPS.iterdir() if (p / "pages.json").exists()):
                want_app = (show or only or "").split(":")[0]
                if want_app and app_dir.name != want_app:
                    continue
                pages = json.loads((app_dir / "pages.json").read_text())["pages"]
                proc, base = start_app(python, app_dir, pages[0]["path"])
                try:
                    for page in pages:
                        if show and ":" in show and page["name"] != show.split(":", 1)[1]:
                            continue
                        await open_page(tab, base, page)
                        snap = await snapshot.capture(tab)
                        elements = [n.to_element() for n in snap.nodes]
                        if show:
                            print(f"== {app_dir.name}:{page['name']} ({len(elements)} elements)")
                            for el in elements:
                                print("  " + describe(el))
                            for sel in html:
                                print(f"-- {sel}\n{await tab.eval_in_world(OUTER_JS, sel)}")
                            continue
                        scored = await score_queries(tab, f"{app_dir.name}:{page['name']}", page["queries"], snap, elements,
                                                     resolve_backend_ids)
                        results.extend(scored)
                        if dump:
                            out = dump / f"{app_dir.name}-{page['name']}"
                            out.mkdir(parents=True, exist_ok=True)
                            (out / "snapshot.json").write_text(json.dumps(elements, indent=0))
                            (out / "queries.json").write_text(json.dumps([
                                {"id": r["id"], "query": r["query"], "relevant_refs": [r["expected"] or "(unmapped)"] if r["selector"] else [],
                                 "expect_no_match": r["selector"] is None, "difficulty": r["difficulty"], "tags": r["tags"]}
                                for r in scored], indent=1))
                finally:
                    proc.terminate()
                    try:
                        proc.wait(10)
                    except subprocess.TimeoutExpired:
                        proc.kill()
    finally:
        await browser.stop()
    return results


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--python", default=sys.executable, help="interpreter with the apps installed")
    ap.add_argument("--app", help="only this app folder")
    ap.add_argument("--show", help="APP[:PAGE]: print the snapshot's elements instead of scoring")
    ap.add_argument("--html", nargs="*", default=[], help="with --show: print these elements' HTML (deep: allowed)")
    ap.add_argument("--dump", type=Path, help="also write the snapshots and resolved queries as a corpus folder "
                    "(bench/find_accuracy.py --corpus DIR replays them without the apps)")
    ap.add_argument("--verbose", "-v", action="store_true", help="list failures")
    ap.add_argument("--tags", action="store_true", help="P@1 per query tag")
    args = ap.parse_args()
    results = asyncio.run(evaluate(args.python, args.app, args.show, args.html, args.dump))
    if results:
        report(results, args.verbose, args.tags)


if __name__ == "__main__":
    main()
