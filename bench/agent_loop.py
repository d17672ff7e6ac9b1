"""A scripted agent solving multi-step tasks through MCP: pinchtab three ways (snapshot then act; act
with snap; act with snapDiff) beside Playwright MCP and chrome-devtools-mcp where installed, with
tool calls and characters returned per task side by side (issue 24).

Each task (bench/agent_pages, served on 127.0.0.1) is a list of steps an agent takes by what it
sees: "fill the field named Email", "tick the checkbox in the row of Customer 17", "click Load more
until Open message 27 shows". Every system runs the same steps with its own tools and the same
policy: it looks at the page (a snapshot call) only when the element it needs is not in what it
last saw, or what it saw is stale (the page changed since and no answer showed it); it fills a form
in one call where its tools can (Playwright's browser_fill_form, chrome-devtools-mcp's fill_form);
it asks for the page with an action that changes it where its tools can (pinchtab's snap/snapDiff,
chrome-devtools-mcp's includeSnapshot) and not with one that only fills; with snap or snapDiff,
pinchtab runs the steps whose refs it already has in one pinchtab_actions call (a form filled and
submitted, a table's boxes ticked and the button pressed). At the end it checks the
task succeeded by reading the page: the markers must be in the last answer, else it reads the page
once more (pinchtab_get_text, browser_snapshot, take_snapshot). Characters are those of the tool
results' text; tools/list is the JSON of the listed tools (compact separators); the default
snapshot is each system's snapshot tool with no arguments on big-1000.html.

    .venv/bin/python bench/agent_loop.py [--npm /work/npm-mcp] [--chromium /usr/bin/chromium]
        [--big /work/shared/pages/big-1000.html] [--only pinchtab]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.fixtures.harness import free_port, serve, wait_healthy  # noqa: E402

PAGES = ROOT / "bench" / "agent_pages"


# -- the tasks ---------------------------------------------------------------------------------------

@dataclass
class Goto:
    path: str


@dataclass
class Fill:  # a form field: a textbox (value), a combobox (option) or a checkbox (value "true")
    role: str
    name: str
    value: str


@dataclass
class Click:
    role: str
    name: str
    changes: bool = True  # the page changes beyond the element (an agent wants to see it)
    dialog: bool = False  # it opens a confirm() the agent accepts


@dataclass
class ClickNear:  # the first element of ``role`` after the text ``anchor`` (a table row's checkbox)
    anchor: str
    role: str


@dataclass
class Until:  # click ``more`` until ``want`` shows
    want: tuple[str, str]
    more: tuple[str, str]


@dataclass
class Expect:
    markers: tuple[str, ...]


TASKS: dict[str, list[Any]] = {
    "signup form": [Goto("signup.html"), Fill("textbox", "Full name", "Ada Lovelace"),
                    Fill("textbox", "Email", "ada@example.com"), Fill("combobox", "Plan", "Pro"),
                    Fill("checkbox", "I accept the terms", "true"), Click("button", "Create account"),
                    Expect(("Welcome, Ada Lovelace", "Plan: Pro"))],
    "confirm dialog": [Goto("dialog.html"), Click("button", "Delete draft", dialog=True), Expect(("Draft deleted",))],
    "iframe form": [Goto("frame.html"), Fill("textbox", "Your email", "ada@example.com"),
                    Click("button", "Subscribe"), Expect(("Subscribed: ada@example.com",))],
    "lazy list": [Goto("lazy.html"), Until(("button", "Open message 27"), ("button", "Load more")),
                  Click("button", "Open message 27"), Expect(("Message 27 opened",))],
    "50-row table": [Goto("table.html"), ClickNear("Customer 17", "checkbox"), ClickNear("Customer 31", "checkbox"),
                     Click("button", "Archive selected"), Expect(("Archived 2 orders: 1017, 1031",))],
    "shop to checkout": [Goto("shop.html"), Click("button", "Add Blue mug to cart"), Click("link", "Cart (1)"),
                         Click("link", "Checkout"), Fill("textbox", "Street", "1 Main St"),
                         Fill("textbox", "City", "Springfield"), Click("button", "Place order"),
                         Expect(("Order placed: Blue mug to 1 Main St, Springfield",))],
    "modal settings": [Goto("modal.html"), Click("button", "Open settings"), Fill("checkbox", "Dark mode", "true"),
                       Click("button", "Save settings"), Expect(("Theme: dark",))],
}


# -- what an agent saw: elements parsed from each system's snapshot text -----------------------------

@dataclass
class Element:
    ref: str
    role: str | None  # None: the format leaves it out (an outline row's parts)
    name: str
    pos: int  # where in the text it was seen (ClickNear looks after an anchor)


ROLES = frozenset("button link textbox searchbox checkbox radio combobox listbox option heading switch tab menuitem "
                  "slider spinbutton paragraph cell row list listitem img image Iframe iframe text".split())
_QUOTED = r'"((?:[^"\\]|\\.)*)"'


def _unquote(text: str) -> str:
    return json.loads(f'"{text}"')


def parse_pinchtab(text: str) -> list[Element]:
    """Compact lines (``e5:button "Go"``, with ``+ ~ -`` in a diff) and outline lines and rows."""
    out: list[Element] = []
    pos = 0
    for line in text.splitlines(keepends=True):
        m = re.match(rf"\s*(?:[+~-] )?(e\d+):(\S+)(?: {_QUOTED})?", line)
        if m:
            out.append(Element(m.group(1), m.group(2), _unquote(m.group(3) or ""), pos))
        elif not line.startswith("#"):
            offset = 0
            for part in re.split(r"(?<!\\)\|", line.rstrip("\n")):
                seg = part.strip()
                m = re.match(r"(e\d+)(?: (.*))?$", seg)
                if m:
                    rest, role = m.group(2) or "", None
                    word = rest.split(" ", 1)[0]
                    if rest.startswith('"'):
                        role = "text"  # `e7 "Hello"`: a text node
                    elif word in ROLES:
                        role, rest = word, rest[len(word):].lstrip()
                    rest = re.sub(r"^\[[ x-]\] ", "", rest)
                    q = re.match(_QUOTED, rest)
                    name = _unquote(q.group(1)) if q else re.sub(r"( \[[^\]]*\]| (val|placeholder|url)=.*)+$", "", rest)
                    out.append(Element(m.group(1), role, name.replace("\\|", "|"), pos + offset))
                offset += len(part) + 1
        pos += len(line)
    return out


def parse_playwright(text: str) -> list[Element]:
    return [Element(m.group(3), m.group(1), _unquote(m.group(2) or ""), m.start())
            for m in re.finditer(rf"- (\w+)(?: {_QUOTED})?[^\n]*?\[ref=(\w+)\]", text)]


def parse_devtools(text: str) -> list[Element]:
    return [Element(m.group(1), m.group(2) or "text", _unquote(m.group(3) or ""), m.start())
            for m in re.finditer(rf"uid=(\S+)(?: ([A-Za-z]+))?(?: {_QUOTED})?", text)]


# -- the agents -------------------------------------------------------------------------------------

@dataclass
class Tally:
    calls: int = 0
    chars: int = 0
    ok: bool = False


@dataclass
class Agent:
    """One system through its MCP session; ``view`` is what it last saw of the page."""

    label: str
    session: ClientSession
    tally: Tally = field(default_factory=Tally)
    view_text: str = ""
    view: list[Element] = field(default_factory=list)
    stale: bool = True
    last: str = ""

    async def call(self, tool: str, args: dict[str, Any]) -> str:
        res = await self.session.call_tool(tool, args)
        text = "".join(c.text for c in res.content if getattr(c, "type", "") == "text")
        self.tally.calls += 1
        self.tally.chars += len(text)
        self.last = text
        if os.environ.get("AGENT_LOOP_TRACE"):
            print(f"--- {self.label} {tool} {json.dumps(args)}\n{text}", file=sys.stderr)
        if res.is_error:
            raise RuntimeError(f"{self.label} {tool} {args}: {text[:300]}")
        return text

    def see(self, text: str) -> None:
        self.view_text, self.view, self.stale = text, self.parse(text), False

    def parse(self, text: str) -> list[Element]:
        raise NotImplementedError

    def lookup(self, role: str, name: str) -> str | None:
        if self.stale:
            return None
        return next((e.ref for e in self.view if e.name == name and e.role in (role, None)), None)

    def lookup_near(self, anchor: str, role: str) -> str | None:
        m = None if self.stale else re.search(re.escape(anchor) + r"(?!\d)", self.view_text)
        if not m:
            return None
        return next((e.ref for e in self.view if e.pos > m.start() and e.role in (role, None)), None)

    async def need(self, role: str, name: str, near: bool = False) -> str:
        find = self.lookup_near if near else self.lookup
        ref = find(name, role) if near else find(role, name)
        if ref is None:
            await self.observe()
            ref = find(name, role) if near else find(role, name)
        if ref is None:
            raise RuntimeError(f"{self.label}: no {role} {name!r} on the page")
        return ref

    async def verify(self, markers: tuple[str, ...]) -> bool:
        if all(m in self.last for m in markers):
            return True
        page = await self.read_page()
        return all(m in page for m in markers)

    # per system
    async def goto(self, url: str) -> None: ...
    async def observe(self) -> None: ...
    async def read_page(self) -> str: ...
    async def fill(self, fields: list[tuple[Fill, str]]) -> None: ...
    async def click(self, ref: str, step: Click) -> None: ...


class Pinchtab(Agent):
    """mode: "snapshot" (look with pinchtab_snapshot), "snap" or "snapDiff" (actions that change the page answer with it)."""

    def __init__(self, label: str, session: ClientSession, mode: str) -> None:
        super().__init__(label, session)
        self.mode = mode

    def parse(self, text: str) -> list[Element]:
        return parse_pinchtab(text)

    def _snap(self, changes: bool) -> dict[str, bool]:
        if self.mode == "snapshot" or not changes:
            return {}
        return {"snap": True} if self.mode == "snap" else {"snapDiff": True}

    def _answered(self, text: str, args: dict[str, bool]) -> None:
        # a JSON line first says what the snapshot does not (a dialog, a new tab, a step's result)
        body = text.partition("\n")[2] if text.startswith("{") else text
        if args.get("snap") and body.startswith(("# diff\n", "# no change")):
            self._apply_outline_diff(body)
        elif args.get("snap"):
            self.see(body)
        elif args.get("snapDiff"):
            self._apply_diff(body)
        else:
            self.stale = True

    def _apply_diff(self, diff: str) -> None:
        self._merge(diff, {m.group(1) for m in re.finditer(r"^- (e\d+):", diff, re.M)})

    def _apply_outline_diff(self, diff: str) -> None:
        """snap's answer for a page seen before: ``+`` outline lines, ``-e14 e15`` refs gone."""
        lines = diff.splitlines()
        gone = {r for line in lines if re.fullmatch(r"-e\d+( e\d+)*", line) for r in line[1:].split()}
        self._merge("\n".join(line[1:] for line in lines if line.startswith("+")), gone)

    def _merge(self, diff: str, gone: set[str]) -> None:
        changes = self.parse(diff)
        seen = {e.ref: e for e in changes}
        base = len(self.view_text)
        kept = [seen.pop(e.ref, e) for e in self.view if e.ref not in gone]
        self.view_text += "\n" + diff
        self.view = kept + [Element(e.ref, e.role, e.name, base + e.pos) for e in seen.values() if e.ref not in gone]
        self.stale = False

    async def goto(self, url: str) -> None:
        args = {} if self.mode == "snapshot" else {"snap": True}
        text = await self.call("pinchtab_navigate", {"url": url, **args})
        self._answered(text, args)

    async def observe(self) -> None:
        self.see(await self.call("pinchtab_snapshot", {}))

    async def verify(self, markers: tuple[str, ...]) -> bool:
        # the page's text first (fewest characters); text inside a frame needs the snapshot
        if await super().verify(markers):
            return True
        await self.observe()
        return all(m in self.last for m in markers)

    async def read_page(self) -> str:
        return await self.call("pinchtab_get_text", {})

    async def fill(self, fields: list[tuple[Fill, str]]) -> None:
        for f, ref in fields:
            if f.role == "checkbox":
                await self.call("pinchtab_click", {"ref": ref})
            elif f.role == "combobox":
                await self.call("pinchtab_select", {"ref": ref, "value": f.value})
            else:
                await self.call("pinchtab_fill", {"ref": ref, "value": f.value})

    async def click(self, ref: str, step: Click) -> None:
        args = self._snap(step.changes)
        text = await self.call("pinchtab_click", {"ref": ref, **args, **({"dialogAction": "accept"} if step.dialog else {})})
        if step.changes:
            self._answered(text, args)

    @property
    def batches(self) -> bool:
        return self.mode != "snapshot"

    async def batch(self, steps: list[tuple[Any, str]]) -> None:
        """Steps whose refs it already has, in one pinchtab_actions call (the page after the last)."""
        if len(steps) == 1 and not isinstance(steps[0][0], Fill):
            step = steps[0][0]
            await self.click(steps[0][1], step if isinstance(step, Click) else Click(step.role, step.anchor, changes=False))
            return
        actions = []
        for step, ref in steps:
            if isinstance(step, Fill) and step.role == "combobox":
                actions.append({"kind": "select", "ref": ref, "value": step.value})
            elif isinstance(step, Fill) and step.role == "textbox":
                actions.append({"kind": "fill", "ref": ref, "value": step.value})
            else:
                actions.append({"kind": "click", "ref": ref})
        args = self._snap(any(isinstance(step, Click) and step.changes for step, _ in steps))
        text = await self.call("pinchtab_actions", {"actions": actions, **args})
        self._answered(text, args)


class Playwright(Agent):
    def parse(self, text: str) -> list[Element]:
        return parse_playwright(text)

    async def goto(self, url: str) -> None:
        await self.call("browser_navigate", {"url": url})
        self.stale = True  # its answer links the snapshot as a file

    async def observe(self) -> None:
        self.see(await self.call("browser_snapshot", {}))

    async def read_page(self) -> str:
        return await self.call("browser_snapshot", {})

    async def fill(self, fields: list[tuple[Fill, str]]) -> None:
        await self.call("browser_fill_form", {"fields": [{"name": f.name, "type": f.role, "target": ref, "value": f.value}
                                                         for f, ref in fields]})

    async def click(self, ref: str, step: Click) -> None:
        await self.call("browser_click", {"element": step.name, "target": ref})
        if step.dialog:
            await self.call("browser_handle_dialog", {"accept": True})
        self.stale = self.stale or step.changes


class DevTools(Agent):
    def parse(self, text: str) -> list[Element]:
        return parse_devtools(text)

    async def goto(self, url: str) -> None:
        await self.call("navigate_page", {"type": "url", "url": url})
        self.stale = True

    async def observe(self) -> None:
        self.see(await self.call("take_snapshot", {}))

    async def read_page(self) -> str:
        return await self.call("take_snapshot", {})

    async def fill(self, fields: list[tuple[Fill, str]]) -> None:
        await self.call("fill_form", {"elements": [{"uid": ref, "value": f.value} for f, ref in fields]})

    async def click(self, ref: str, step: Click) -> None:
        if step.dialog:
            await self.call("click", {"uid": ref})
            await self.call("handle_dialog", {"action": "accept"})
            self.stale = True
            return
        text = await self.call("click", {"uid": ref, **({"includeSnapshot": True} if step.changes else {})})
        if step.changes:
            self.see(text)


def _batchable(step: Any) -> bool:
    return isinstance(step, (Fill, ClickNear)) or (isinstance(step, Click) and not step.dialog)


async def _ref(agent: Agent, step: Any, *, look: bool) -> str | None:
    near = isinstance(step, ClickNear)
    role, name = (step.role, step.anchor) if near else (step.role, step.name)
    if look:
        return await agent.need(role, name, near=near)
    return agent.lookup_near(name, role) if near else agent.lookup(role, name)


async def run_task(agent: Agent, steps: list[Any], base: str) -> None:
    i = 0
    while i < len(steps):
        step = steps[i]
        if getattr(agent, "batches", False) and _batchable(step):
            # the steps from here whose refs it has: one call, ending after a step that changes the page
            run = [(step, await _ref(agent, step, look=True))]
            i += 1
            while i < len(steps) and _batchable(steps[i]) and not (isinstance(run[-1][0], Click) and run[-1][0].changes):
                ref = await _ref(agent, steps[i], look=False)
                if ref is None:
                    break
                run.append((steps[i], ref))
                i += 1
            await agent.batch(run)
            continue
        if isinstance(step, Goto):
            await agent.goto(f"{base}/{step.path}")
        elif isinstance(step, Fill):  # consecutive fields: one form
            group = []
            while i < len(steps) and isinstance(steps[i], Fill):
                group.append((steps[i], await agent.need(steps[i].role, steps[i].name)))
                i += 1
            await agent.fill(group)
            continue
        elif isinstance(step, Click):
            await agent.click(await agent.need(step.role, step.name), step)
        elif isinstance(step, ClickNear):
            await agent.click(await agent.need(step.role, step.anchor, near=True), Click(step.role, step.anchor, changes=False))
        elif isinstance(step, Until):
            for _ in range(20):
                if agent.stale:
                    await agent.observe()
                if agent.lookup(*step.want) is not None:
                    break
                await agent.click(await agent.need(*step.more), Click(*step.more))
        elif isinstance(step, Expect):
            agent.tally.ok = await agent.verify(step.markers)
        i += 1


# -- the systems ------------------------------------------------------------------------------------

@dataclass
class System:
    label: str
    params: StdioServerParameters
    make: Any  # (label, session) -> Agent
    snapshot_tool: tuple[str, dict[str, Any]]
    navigate: Any  # (session, url) -> awaitable


def systems(args: argparse.Namespace, bridge: str, workdir: str) -> list[System]:
    py = sys.executable
    pin = StdioServerParameters(command=py, args=["-m", "pinchtab", "mcp", "--server", bridge])
    out = [System(f"pinchtab {mode}", pin, (lambda m: lambda label, s: Pinchtab(label, s, m))(mode),
                  ("pinchtab_snapshot", {}), lambda s, url: s.call_tool("pinchtab_navigate", {"url": url}))
           for mode in ("snapshot", "snap", "snapDiff")]
    if args.only == "pinchtab":
        return out
    npm_bin = Path(args.npm) / "node_modules" / ".bin"
    pw, cdt = npm_bin / "playwright-mcp", npm_bin / "chrome-devtools-mcp"
    if pw.exists():
        out.append(System("Playwright MCP", StdioServerParameters(
            command=str(pw), args=["--headless", "--isolated", "--no-sandbox", "--executable-path", args.chromium],
            cwd=workdir), Playwright, ("browser_snapshot", {}), lambda s, url: s.call_tool("browser_navigate", {"url": url})))
    if cdt.exists():
        out.append(System("chrome-devtools-mcp", StdioServerParameters(
            command=str(cdt), args=["--headless", "--isolated", "--executablePath", args.chromium,
                                    "--chromeArg=--no-sandbox", "--no-usage-statistics", "--no-performance-crux",
                                    "--no-page-id-routing"], cwd=workdir),
            DevTools, ("take_snapshot", {}),
            lambda s, url: s.call_tool("navigate_page", {"type": "url", "url": url})))
    return out


async def measure(system: System, base: str, big_url: str | None) -> dict[str, Any]:
    async with stdio_client(system.params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        tools = (await session.list_tools()).tools
        listed = [t.model_dump(mode="json", exclude_none=True, by_alias=True) for t in tools]
        result: dict[str, Any] = {"tools": len(tools), "tools_list": len(json.dumps(listed, separators=(",", ":"))),
                                  "tasks": {}}
        for name, steps in TASKS.items():
            agent = system.make(system.label, session)
            try:
                await run_task(agent, steps, base)
            except Exception as exc:  # a failed task counts as unsolved, with its calls so far
                print(f"  {system.label} / {name}: {exc}", file=sys.stderr)
            result["tasks"][name] = agent.tally
        if big_url:
            await system.navigate(session, big_url)
            res = await session.call_tool(*system.snapshot_tool)
            result["big"] = sum(len(c.text) for c in res.content if getattr(c, "type", "") == "text")
        return result


def start_bridge() -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    proc = subprocess.Popen([sys.executable, "-m", "pinchtab", "bridge", "--port", str(port)],
                            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL)
    wait_healthy(url, proc, timeout=60)
    return proc, url


def k(n: int) -> str:
    return f"{n / 1000:.1f}k" if n >= 1000 else str(n)


def report(results: dict[str, dict[str, Any]]) -> None:
    labels = list(results)
    print("| task | " + " | ".join(labels) + " |")
    print("| --- |" + " --- |" * len(labels))
    for task in TASKS:
        cells = []
        for label in labels:
            t = results[label]["tasks"][task]
            cells.append(f"{t.calls} / {k(t.chars)}" + ("" if t.ok else " FAILED"))
        print(f"| {task} | " + " | ".join(cells) + " |")
    totals = {label: (sum(t.calls for t in r["tasks"].values()), sum(t.chars for t in r["tasks"].values()),
                      sum(t.ok for t in r["tasks"].values())) for label, r in results.items()}
    print("| solved | " + " | ".join(f"{totals[x][2]}/{len(TASKS)}" for x in labels) + " |")
    print("| tool calls | " + " | ".join(str(totals[x][0]) for x in labels) + " |")
    print("| characters returned | " + " | ".join(f"{totals[x][1]:,}" for x in labels) + " |")
    print("| tools/list JSON (tools) | " + " | ".join(f"{results[x]['tools_list']:,} ({results[x]['tools']})" for x in labels) + " |")
    print("| default snapshot, big-1000.html | " + " | ".join(f"{results[x].get('big', 0):,}" for x in labels) + " |")
    peers = [x for x in labels if not x.startswith("pinchtab")]
    if peers:
        snap = totals["pinchtab snap"]
        best_calls = min(totals[x][0] for x in peers)
        best_chars = min(totals[x][1] for x in peers)
        print(f"\npinchtab snap against the best peer: calls {snap[0] / best_calls:.3f}x (target <= 0.7), "
              f"characters {snap[1] / best_chars:.3f}x ({snap[1]:,} / {best_chars:,}; target <= 0.25)")
        pw = results.get("Playwright MCP")
        if pw:
            print(f"tools/list against Playwright MCP: {results['pinchtab snap']['tools_list'] / pw['tools_list']:.3f}x (target <= 0.5)")
        cdt = results.get("chrome-devtools-mcp")
        if cdt and cdt.get("big"):
            print(f"default snapshot against chrome-devtools-mcp: {results['pinchtab snap']['big'] / cdt['big']:.3f}x (target <= 0.5)")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--npm", default="/work/npm-mcp", help="npm prefix with @playwright/mcp and chrome-devtools-mcp")
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    parser.add_argument("--big", default="/work/shared/pages/big-1000.html", help="the 1,000-control page")
    parser.add_argument("--only", choices=["pinchtab"], help="skip the peers")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        site = Path(tmp) / "site"
        shutil.copytree(PAGES, site)
        big = Path(args.big)
        if big.exists():
            shutil.copy(big, site / "big-1000.html")
        base, server = serve(site)
        bridge, url = start_bridge()
        results: dict[str, dict[str, Any]] = {}
        try:
            for system in systems(args, url, tmp):
                print(f"running {system.label} ...", file=sys.stderr)
                results[system.label] = await measure(system, base, f"{base}/big-1000.html" if big.exists() else None)
        finally:
            bridge.terminate()
            bridge.wait()
            server.shutdown()
    report(results)


if __name__ == "__main__":
    os.environ.setdefault("CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS", "1")
    asyncio.run(main())
