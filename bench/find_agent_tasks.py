"""Multi-step tasks on real third-party apps through MCP: an agent that resolves every step with
pinchtab_find against one that reads pinchtab_snapshot (issue 28's last "Done when" clause).

The apps are those of find's real-application set (tests/fixtures/find_apps, installed from PyPI
into the interpreter given by ``--python``), started with their seeded data. Each task is a list of
steps a person would give ("the 'Can change user' permission", "Save button"), each with the
element it means (its gold role and name), and ends with a check of the app's real state: a row
the app serves back over HTTP, the page's text, or a value the page holds. Two scripted agents run
every task through ``pinchtab mcp`` (stdio, the official mcp SDK client):

- find: one ``pinchtab_find`` per step (the step's words as the query), then the action on its
  top ref; when find's answer says the element is inside a collapsed section (``hint``), it clicks
  the ref the hint names and asks again, as the hint says;
- snapshot: ``pinchtab_snapshot`` (the tool's defaults) when the element is not in what it last saw
  or the page changed since, then the element whose role and name equal the step's gold.

Each app is started afresh for each agent, so one agent's changes never satisfy the other's
check; a check that already holds before a task is reported as a bench error. For every step the
find agent takes, the bench prints whether find's top match was the gold element (the query, the
element chosen and the gold), so misses can be handed to whoever works on find's scoring.

    .venv/bin/python bench/find_agent_tasks.py --python .venv-apps/bin/python [--app NAME]
        [--task NAME] [--mode find|snapshot] [--json OUT]
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import http.cookiejar
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from agent_loop import Element, k, parse_pinchtab, start_bridge  # noqa: E402
from find_apps_accuracy import APPS, start_app  # noqa: E402


# -- the tasks ---------------------------------------------------------------------------------------

@dataclass
class Goto:
    """Open a page; ``ready`` (a JS expression) holds once the app has drawn its widgets, waited
    for outside the agent's tally (as bench/find_apps_accuracy.py waits for its pages)."""

    path: str
    ready: str = ""


# the apps that draw their widgets after the page loads
DASH = Goto("/", "document.title === 'Sales dashboard' && !!document.querySelector('.dash-spreadsheet [role=checkbox], "
                 ".dash-spreadsheet input') && !!document.querySelector('[role=slider]')")
NICEGUI = Goto("/", "!!document.querySelector('.q-table')")
PANEL = Goto("/", "(() => { const roots = [document]; while (roots.length) { const r = roots.shift(); "
                  "for (const e of r.querySelectorAll('*')) { if (e.shadowRoot) roots.push(e.shadowRoot); "
                  "if (e.localName === 'button' && e.textContent.trim() === 'Reset filters') return true; } } return false; })()")


@dataclass
class Step:
    """What a person says (``query``), the element it means (``role``, ``name``: as the snapshot
    shows them; ``nth`` among equal ones) and what to do: click, fill, select (a native <select>'s
    option), type (keys into an editor) or press (a key)."""

    query: str
    role: str | None
    name: str
    act: str = "click"
    value: str = ""
    nth: int = 0


@dataclass
class App:
    """The app's base URL and an HTTP opener with a cookie jar (the admin apps log the bench in)."""

    base: str
    opener: Any = field(default_factory=lambda: urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=30) as r:
            return r.read().decode()


@dataclass
class Check:
    """The app's state after the task, read outside the agent's tally: ``http`` reads the app
    over HTTP (its database through its own pages); ``text`` the tab's text, ``snap`` its
    snapshot (a widget's value or state) and ``js`` an expression in the page; each True when done."""

    what: str
    http: Callable[[App], bool] | None = None
    text: Callable[[str], bool] | None = None
    snap: Callable[[str], bool] | None = None
    js: str | None = None


@dataclass
class Task:
    app: str
    name: str
    steps: list[Any]
    check: Check


def selected_options(html: str, select_name: str) -> list[str]:
    """The selected options' labels of one <select> in a page the app rendered."""
    m = re.search(rf'<select[^>]*name="{re.escape(select_name)}"[^>]*>(.*?)</select>', html, re.S)
    if not m:
        return []
    return [re.sub(r"\s+", " ", t).strip() for t in re.findall(r"<option[^>]*\bselected\b[^>]*>(.*?)</option>", m.group(1), re.S)]


def input_tag(html: str, name: str) -> str:
    return (re.search(rf'<input[^>]*name="{re.escape(name)}"[^>]*>', html) or [""])[0]


def input_value(html: str, name: str) -> str | None:
    v = re.search(r'value="([^"]*)"', input_tag(html, name))
    return v.group(1) if v else None


def checked(html: str, name: str) -> bool:
    return bool(re.search(r"\bchecked\b", input_tag(html, name)))


PERM = "Authentication and Authorization | {} | Can {} {}"
USER = "/admin/auth/user/{}/change/"

TASKS: list[Task] = [
    # -- Django's admin: dual list boxes, a collapsed fieldset, list filters, the action menu ---
    Task("django_admin", "grant a permission from the dual list", [
        Goto(USER.format(2)),
        Step("the 'Can change user' permission", "option", PERM.format("user", "change", "user")),
        Step("Choose arrow that moves it to the chosen permissions", "button", "Choose selected user permissions"),
        Step("Save button", "button", "Save"),
    ], Check("alice holds Can change user", http=lambda a: PERM.format("user", "change", "user")
             in selected_options(a.get(USER.format(2)), "user_permissions"))),
    Task("django_admin", "put a user in a group", [
        Goto(USER.format(4)),
        Step("Moderators group", "option", "Moderators"),
        Step("choose arrow for groups", "button", "Choose selected groups"),
        Step("save and continue editing", "button", "Save and continue editing"),
    ], Check("chen is in Moderators", http=lambda a: "Moderators" in selected_options(a.get(USER.format(4)), "groups"))),
    Task("django_admin", "make a user staff", [
        Goto(USER.format(5)),
        Step("staff status checkbox", "checkbox", "Staff status"),
        Step("Save", "button", "Save"),
    ], Check("dana is staff", http=lambda a: checked(a.get(USER.format(5)), "is_staff"))),
    Task("django_admin", "edit a user's email", [
        Goto(USER.format(3)),
        Step("email address field", "textbox", "Email address:", "fill", "bob.tanaka@example.org"),
        Step("save button", "button", "Save"),
    ], Check("bob's email changed", http=lambda a: input_value(a.get(USER.format(3)), "email") == "bob.tanaka@example.org")),
    Task("django_admin", "last login in the collapsed section", [
        Goto(USER.format(2)),
        Step("Important dates section", "button", "Important dates"),
        Step("today link for the last login date", "link", "Today"),
        Step("now link for the last login time", "link", "Now"),
        Step("Save", "button", "Save"),
    ], Check("alice has a last login", http=lambda a: bool(input_value(a.get(USER.format(2)), "last_login_0")))),
    Task("django_admin", "search the user list", [
        Goto("/admin/auth/user/"),
        Step("search box", "textbox", "Search", "fill", "Tanaka"),
        Step("search button", "button", "Search"),
    ], Check("only bob is listed", text=lambda t: "Tanaka" in t and "Moreau" not in t)),
    Task("django_admin", "filter users by staff status", [
        Goto("/admin/auth/user/"),
        Step("show only staff users (Yes under staff status)", "link", "Yes"),
    ], Check("only admin is listed", text=lambda t: "admin@example.com" in t and "bob@example.com" not in t)),
    Task("django_admin", "delete a group with the action menu", [
        Goto("/admin/auth/group/"),
        Step("checkbox for Support", None, "Select this object for an action - Support"),
        Step("action dropdown", "combobox", "Action:", "select", "Delete selected groups"),
        Step("Go button", "button", "Go"),
        Step("Yes, I'm sure", "button", "Yes, I’m sure"),
    ], Check("Support is gone", http=lambda a: ">Support<" not in a.get("/admin/auth/group/"))),
    # -- Flask-Admin: a model form, Select2 dropdowns ------------------------------------------------
    Task("flask_admin", "edit a customer", [
        Goto("/admin/customer/edit/?id=2"),
        Step("country field", "textbox", "Country", "fill", "DE"),
        Step("VIP checkbox", "checkbox", "Vip"),
        Step("save", "button", "Save"),
    ], Check("bob is a VIP in DE", http=lambda a: (lambda h: input_value(h, "country") == "DE" and checked(h, "vip"))(
        a.get("/admin/customer/edit/?id=2")))),
    Task("flask_admin", "create an order", [
        Goto("/admin/order/new/"),
        Step("reference", "textbox", "Reference *", "fill", "SO-900"),
        Step("status dropdown", "link", "pending"),
        Step("paid", "option", "paid"),
        Step("save button", "button", "Save"),
    ], Check("order SO-900 is paid", http=lambda a: re.search(r"SO-900\s*</td>\s*<td[^>]*>\s*paid", a.get("/admin/order/")) is not None)),
    Task("flask_admin", "search customers", [
        Goto("/admin/customer/"),
        Step("search field", "textbox", "name, email", "fill", "dana"),
        Step("search field", "textbox", "name, email", "press", "Enter"),
    ], Check("only Dana is listed", text=lambda t: "Dana Kowalski" in t and "Alice Moreau" not in t)),
    # -- Datasette: filter rows, a facet, the SQL editor --------------------------------------------
    Task("datasette", "filter rows by a column", [
        Goto("/library/books"),
        Step("column to filter on", "combobox", "", "select", "genre"),
        Step("filter value", "textbox", "", "fill", "fantasy"),
        Step("Apply", "button", "Apply"),
    ], Check("two fantasy books", text=lambda t: '2 rows where genre = "fantasy"' in t)),
    Task("datasette", "facet by genre", [
        Goto("/library/books"),
        Step("genre facet", "link", "genre"),
        Step("poetry", "link", "poetry"),
    ], Check("one poetry book", text=lambda t: '1 row where genre = "poetry"' in t)),
    Task("datasette", "run a SQL query", [
        Goto("/library"),
        Step("SQL editor", "textbox", ""),
        Step("SQL editor", "textbox", "", "press", "Control+a"),
        Step("SQL editor", "textbox", "", "type", "select count(*) as n from books where available = 1"),
        Step("Run SQL", "button", "Run SQL"),
    ], Check("six available books", text=lambda t: "1 row" in t and "\n6" in t)),
    # -- Dash: a react-select dropdown, a slider, a date range, tabs, a callback ----------------------
    Task("dash", "pick a region and refresh", [
        DASH,
        Step("region dropdown", "button", "North"),
        Step("South", "option", "South"),
        Step("Refresh data button", "button", "Refresh data"),
    ], Check("South, refreshed once", snap=lambda s: 'button "South"' in s and "Refreshed 1 times" in s)),
    Task("dash", "set the minimum units slider", [
        DASH,
        Step("minimum units slider", "slider", "", "fill", "25"),
    ], Check("slider at 25", snap=lambda s: 'slider val="25"' in s)),
    Task("dash", "start date and chart type", [
        DASH,
        Step("start date", "textbox", "Start date", "fill", "2026-02-01"),
        Step("Line chart type", "radio", "Line"),
    ], Check("Feb 1 and Line", snap=lambda s: 'val="2026-02-01"' in s and "[x] Line" in s)),
    Task("dash", "switch to the Forecast tab", [
        DASH,
        Step("Forecast tab", "tab", "Forecast"),
    ], Check("Forecast selected", js="document.querySelector('.tab--selected')?.textContent === 'Forecast'")),
    # -- NiceGUI (Quasar): a select with a popup list, a switch, an expansion, a slider ---------------
    Task("nicegui", "choose a team", [
        NICEGUI,
        Step("team dropdown", "combobox", "Team"),
        Step("Design", "option", "Design"),
    ], Check("team is Design", snap=lambda s: 'combobox "Team" val="Design"' in s)),
    Task("nicegui", "urgent and private task", [
        NICEGUI,
        Step("urgent switch", "switch", "Urgent"),
        Step("Advanced options", "button", 'Expand "Advanced options"'),
        Step("private task checkbox", "checkbox", "Private task"),
    ], Check("urgent and private", snap=lambda s: '[x] "Urgent"' in s and '[x] "Private task"' in s)),
    Task("nicegui", "set priority and switch tab", [
        NICEGUI,
        Step("priority slider", "slider", "Priority", "fill", "5"),
        Step("Reports tab", "tab", "REPORTS"),
    ], Check("priority 5, Reports", snap=lambda s: 'slider "Priority" val="5"' in s and re.search(r'tab "REPORTS"[^\n]*selected', s) is not None)),
    # -- Panel (Bokeh web components in shadow roots): a select, a range slider, a server callback ---
    # (the app serves one set of widgets to every page load: a value an earlier task set stays)
    Task("panel", "pick a station and update", [
        PANEL,
        Step("weather station", "combobox", "Weather station", "select", "Lima"),
        Step("Update chart", "button", "Update chart"),
    ], Check("status shows Lima", snap=lambda s: "Showing Lima, 2000-2020" in s)),
    Task("panel", "narrow the years and update", [
        PANEL,
        Step("start of the years range", "slider", "", "fill", "2010"),
        Step("Update chart", "button", "Update chart"),
    ], Check("status shows 2010-2020", snap=lambda s: re.search(r"Showing \w+, 2010-2020", s) is not None)),
    Task("panel", "smooth the curve and open the table tab", [
        PANEL,
        Step("smooth the curve checkbox", "checkbox", ""),
        Step("Table tab", "tab", "Table"),
    ], Check("smoothing on, Table tab", snap=lambda s: re.search(r"checkbox \[x\]", s) is not None and "Rows by year" in s)),
]


# -- the agents -------------------------------------------------------------------------------------

@dataclass
class Miss:
    task: str
    query: str
    chosen: str
    gold: str
    confidence: str


@dataclass
class Tally:
    calls: int = 0
    chars: int = 0
    ok: bool = False
    error: str = ""
    misses: list[Miss] = field(default_factory=list)


def _label(role: str | None, name: str) -> str:
    return f"{role or '(row part)'} {name!r}"


def tool_text(res: Any) -> str:
    return "".join(c.text for c in res.content if getattr(c, "type", "") == "text")


_ONE = re.compile(r'\s*(e\d+)(?: ([a-zA-Z]+))?(?: \[[ x-]\])? "((?:[^"\\]|\\.)*)"')


def elements(snapshot: str) -> list[Any]:
    """The snapshot's elements; a box's state (``[x] ``) is not part of its name. A line of one
    element whose quoted name holds " | " (Django's "app | model | permission" options) is read
    whole; agent_loop's parser takes that for an outline row's parts."""
    out = []
    for line in snapshot.splitlines():
        one = _ONE.match(line)
        tail = line[one.end():] if one else ""
        inner = re.fullmatch(r"[^:]*: (e\d+) \[[ x-]\] (.*)", tail)  # an option wrapping its radio or box
        if one and (inner or not re.search(r"\be\d+\b", tail)):
            out.append(Element(one.group(1), one.group(2) or "text", json.loads(f'"{one.group(3)}"'), 0))
            if inner:
                out.append(Element(inner.group(1), None, inner.group(2), 0))
            continue
        for e in parse_pinchtab(line):
            # an unnamed element's line ends with its value or states: no name
            e.name = re.sub(r"^\[[ x-]\]\s*|^(val|placeholder)=.*|^(\[[^\]]*\]\s*)+$", "", e.name)
            out.append(e)
    return out


def gold_ref(view: list[Any], step: Step) -> str | None:
    # a row's parts carry no role: they stand in only when no element of the role has the name
    same = [e.ref for e in view if e.name == step.name and e.role == step.role] or \
        [e.ref for e in view if e.name == step.name and e.role is None]
    return same[step.nth] if len(same) > step.nth else None


class Agent:
    def __init__(self, session: ClientSession, task: Task) -> None:
        self.session, self.task, self.tally = session, task, Tally()

    async def call(self, tool: str, args: dict[str, Any]) -> str:
        res = await self.session.call_tool(tool, args)
        text = tool_text(res)
        self.tally.calls += 1
        self.tally.chars += len(text)
        if os.environ.get("FIND_AGENT_TRACE"):
            print(f"--- {tool} {json.dumps(args)}\n{text[:3000]}", file=sys.stderr)
        if res.is_error:
            raise RuntimeError(f"{tool} {json.dumps(args)}: {text[:300]}")
        return text

    async def goto(self, url: str) -> None:
        await self.call("pinchtab_navigate", {"url": url})

    async def resolve(self, step: Step) -> str:
        raise NotImplementedError

    async def act(self, step: Step, ref: str) -> None:
        if step.act == "click":
            await self.call("pinchtab_click", {"ref": ref})
        elif step.act == "fill":
            await self.call("pinchtab_fill", {"ref": ref, "value": step.value})
        elif step.act == "select":
            await self.call("pinchtab_select", {"ref": ref, "value": step.value})
        elif step.act == "type":
            await self.call("pinchtab_type", {"ref": ref, "text": step.value})
        elif step.act == "press":
            await self.call("pinchtab_press", {"ref": ref, "key": step.value})
        else:
            raise ValueError(step.act)


class FindAgent(Agent):
    async def _find(self, query: str) -> dict[str, Any]:
        return json.loads(await self.call("pinchtab_find", {"query": query}))

    async def resolve(self, step: Step) -> str:
        res = await self._find(step.query)
        hint = re.search(r"expand it \(click (e\d+)\)", res.get("hint") or "")
        if hint:
            await self.call("pinchtab_click", {"ref": hint.group(1)})
            res = await self._find(step.query)
        if not res.get("matches"):  # the page may still be drawing what was asked for: once more
            await asyncio.sleep(0.5)
            res = await self._find(step.query)
        top = (res.get("matches") or [None])[0]
        # the gold element's ref, from a snapshot outside the tally (the page has not changed
        # since find looked, so refs agree)
        gold = gold_ref(elements(tool_text(await self.session.call_tool("pinchtab_snapshot", {}))), step)
        if top is None or top["ref"] != gold:
            self.tally.misses.append(Miss(self.task.name, step.query,
                                          _label(top["role"], top["name"]) if top else "(nothing)",
                                          _label(step.role, step.name) + (f" #{step.nth + 1}" if step.nth else "")
                                          + ("" if gold else " (not on the page)"), res.get("confidence", "")))
        if top is None:
            raise RuntimeError(f"find answered nothing for {step.query!r}")
        return top["ref"]


class SnapshotAgent(Agent):
    def __init__(self, session: ClientSession, task: Task) -> None:
        super().__init__(session, task)
        self.view: list[Any] = []
        self.stale = True

    async def goto(self, url: str) -> None:
        await super().goto(url)
        self.stale = True

    async def resolve(self, step: Step) -> str:
        ref = None if self.stale else gold_ref(self.view, step)
        for pause in (0.0, 0.5):  # the page may still be drawing what was asked for: once more
            if ref is not None:
                break
            await asyncio.sleep(pause)
            self.view, self.stale = elements(await self.call("pinchtab_snapshot", {})), False
            ref = gold_ref(self.view, step)
        if ref is None:
            raise RuntimeError(f"no {_label(step.role, step.name)} in the snapshot")
        return ref

    async def act(self, step: Step, ref: str) -> None:
        await super().act(step, ref)
        # what it saw is stale once the page may have changed beyond the field it filled
        self.stale = self.stale or step.act in ("click", "press", "select", "type")


AGENTS = {"find": FindAgent, "snapshot": SnapshotAgent}


# -- running ----------------------------------------------------------------------------------------

async def holds(session: ClientSession, app: App, check: Check) -> bool:
    if check.http is not None and not check.http(app):
        return False
    if check.text is not None:
        if not check.text(tool_text(await session.call_tool("pinchtab_get_text", {"mode": "raw"}))):
            return False
    if check.snap is not None and not check.snap(tool_text(await session.call_tool("pinchtab_snapshot", {}))):
        return False
    if check.js is not None:
        text = tool_text(await session.call_tool("pinchtab_eval", {"expression": check.js})).strip()
        if text not in ("true", '{"result": true}', '{"result":true}'):
            return False
    return True


async def settle(session: ClientSession, app: App, check: Check, timeout: float = 5.0) -> bool:
    """The check, retried briefly: a save or a server callback lands a moment after the click."""
    deadline = time.monotonic() + timeout
    while True:
        if await holds(session, app, check):
            return True
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.25)


async def run_task(agent: Agent, app: App) -> None:
    for step in agent.task.steps:
        if isinstance(step, Goto):
            await agent.goto(app.base + step.path)
            if step.ready:
                waited = tool_text(await agent.session.call_tool("pinchtab_wait_for_function", {"fn": step.ready, "timeout": 30000}))
                if '"waited": true' not in waited.replace('"waited":true', '"waited": true'):
                    raise RuntimeError(f"the page did not get ready: {waited[:200]}")
        else:
            await agent.act(step, await agent.resolve(step))


async def run_app(python: str, bridge: str, app_name: str, tasks: list[Task], mode: str) -> dict[str, Tally]:
    first = next(s.path for s in tasks[0].steps if isinstance(s, Goto))
    proc, base = start_app(python, APPS / app_name, first)
    app = App(base)
    out: dict[str, Tally] = {}
    # all tools: the checks and the waits for a page to draw use eval and wait_for_function (the agents use core tools)
    params = StdioServerParameters(command=sys.executable, args=["-m", "pinchtab", "mcp", "--server", bridge, "--tools", "all"])
    try:
        async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
            await session.initialize()
            for task in tasks:
                agent = AGENTS[mode](session, task)
                if task.check.http is not None and task.check.http(app):
                    agent.tally.error = "bench error: the check holds before the task"
                else:
                    try:
                        await run_task(agent, app)
                    except Exception as exc:  # a failed task counts as unsolved, with its calls so far
                        agent.tally.error = str(exc)[:300]
                    agent.tally.ok = await settle(session, app, task.check)
                out[task.name] = agent.tally
                print(f"  {mode:8} {app_name} / {task.name}: {'solved' if agent.tally.ok else 'FAILED'}"
                      f" ({agent.tally.calls} calls){' - ' + agent.tally.error if agent.tally.error else ''}",
                      file=sys.stderr)
    finally:
        stop_app(proc)
    return out


def stop_app(proc: subprocess.Popen[bytes]) -> None:
    """The app and the servers it started (Datasette's app.py runs ``datasette serve`` as a child,
    which outlives it otherwise)."""
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == proc.pid:
            children.append(int(stat.parent.name))
    proc.terminate()
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, 15)


def report(tasks: list[Task], results: dict[str, dict[str, Tally]]) -> None:
    modes = list(results)
    print("| app | task | " + " | ".join(modes) + " |")
    print("| --- | --- |" + " --- |" * len(modes))
    for t in tasks:
        cells = []
        for m in modes:
            r = results[m].get(t.name)
            cells.append("-" if r is None else f"{'solved' if r.ok else 'FAILED'} {r.calls} / {k(r.chars)}")
        print(f"| {t.app} | {t.name} | " + " | ".join(cells) + " |")
    for m in modes:
        rs = results[m].values()
        print(f"{m}: solved {sum(r.ok for r in rs)}/{len(rs)}, {sum(r.calls for r in rs)} calls, "
              f"{k(sum(r.chars for r in rs))} characters")
    misses = [x for r in results.get("find", {}).values() for x in r.misses]
    if misses:
        print(f"\nfind's top match was not the gold element ({len(misses)}):")
        for x in misses:
            print(f"- {x.task}: {x.query!r} -> {x.chosen} ({x.confidence}); gold {x.gold}")
    errors = [(m, name, r.error) for m in modes for name, r in results[m].items() if r.error and not r.ok]
    if errors:
        print("\nwhy tasks failed:")
        for m, name, err in errors:
            print(f"- {m} / {name}: {err}")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--python", default=sys.executable, help="interpreter with the apps installed")
    ap.add_argument("--app", help="only this app")
    ap.add_argument("--task", help="only tasks whose name contains this")
    ap.add_argument("--mode", choices=list(AGENTS), help="only this agent")
    ap.add_argument("--json", type=Path, help="also write the results here")
    args = ap.parse_args()
    tasks = [t for t in TASKS if (not args.app or t.app == args.app) and (not args.task or args.task in t.name)]
    modes = [args.mode] if args.mode else list(AGENTS)
    # the bridge evaluates only for the checks that read a page's state (the agents never call it)
    os.environ["PINCHTAB_ALLOW_EVALUATE"] = "1"
    bridge, url = start_bridge()
    results: dict[str, dict[str, Tally]] = {m: {} for m in modes}
    try:
        for app_name in dict.fromkeys(t.app for t in tasks):
            for m in modes:
                results[m].update(await run_app(args.python, url, app_name, [t for t in tasks if t.app == app_name], m))
    finally:
        bridge.terminate()
        bridge.wait()
    report(tasks, results)
    if args.json:
        args.json.write_text(json.dumps({m: {n: {"ok": r.ok, "calls": r.calls, "chars": r.chars, "error": r.error,
                                                  "misses": [vars(x) for x in r.misses]} for n, r in rs.items()}
                                         for m, rs in results.items()}, indent=1))


if __name__ == "__main__":
    asyncio.run(main())
