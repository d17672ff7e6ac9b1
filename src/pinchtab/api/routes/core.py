"""The browser routes every bridge serves: tabs, navigation, snapshot, find, actions, content."""

from __future__ import annotations

from pinchtab import models as m
from pinchtab.api.route import Route
from pinchtab.models.gates import COOKIES, EVALUATE

ACTION_COMMANDS = ("click", "dblclick", "hover", "focus", "check", "uncheck", "type", "fill", "select", "press", "scroll")

ROUTES: tuple[Route, ...] = (
    Route("health", ("GET",), "/health", None, "Is it up? Counts tabs (bridge) or instances (server)",
          owner="both", tabbed=False, mcp=("pinchtab_health",), cli=("health",)),
    Route("tabs", ("GET",), "/tabs", None, "List open tabs", owner="both", tabbed=False,
          mcp=("pinchtab_list_tabs",), cli=("tabs",)),
    Route("tab", ("POST",), "/tab", m.TabRequest, "Open, focus or close a tab", tabbed=False, answers_tab=True,
          per_instance=True),
    Route("close_tab", ("POST",), "/close", m.CloseRequest, "Close a tab (the current one without tabId)",
          answers_tab=True, per_instance=True, mcp=("pinchtab_close_tab",), cli=("close",)),
    Route("navigate", ("POST",), "/navigate", m.NavigateRequest, "Load a URL; answers once the page has loaded",
          answers_tab=True, mcp=("pinchtab_navigate",), cli=("nav",)),
    Route("back", ("POST",), "/back", m.TabScoped, "Back in the tab's history", answers_tab=True, cli=("back",)),
    Route("forward", ("POST",), "/forward", m.TabScoped, "Forward in the tab's history", answers_tab=True,
          cli=("forward",)),
    Route("reload", ("POST",), "/reload", m.TabScoped, "Reload the tab", answers_tab=True, cli=("reload",)),
    Route("snapshot", ("GET",), "/snapshot", m.SnapshotQuery, "Accessibility snapshot with refs (e0, e1, ...)",
          reply="text", mcp=("pinchtab_snapshot",), cli=("snap",)),
    Route("find", ("POST",), "/find", m.FindRequest, "Find an element by natural-language description",
          mcp=("pinchtab_find",), cli=("find",)),
    Route("action", ("POST",), "/action", m.ActionRequest, "Act on an element: click, type, fill, press, ...",
          mcp=("pinchtab_click", "pinchtab_type", "pinchtab_press", "pinchtab_hover", "pinchtab_focus",
               "pinchtab_select", "pinchtab_scroll", "pinchtab_fill", "pinchtab_keyboard_type",
               "pinchtab_keyboard_inserttext", "pinchtab_keydown", "pinchtab_keyup", "pinchtab_scroll_into_view",
               "pinchtab_drag", "pinchtab_mouse"),
          cli=ACTION_COMMANDS),
    Route("actions", ("POST",), "/actions", m.ActionsRequest, "Run several actions in order; stops at the first failure",
          mcp=("pinchtab_actions",)),
    Route("text", ("GET",), "/text", m.TextQuery, "Readable text of the page (mode=raw: all innerText)",
          mcp=("pinchtab_get_text",), cli=("text",)),
    Route("screenshot", ("GET",), "/screenshot", m.ScreenshotQuery,
          "Screenshot (png or jpeg); raw=true answers the image bytes", reply="binary",
          mcp=("pinchtab_screenshot",), cli=("screenshot",)),
    Route("pdf", ("GET", "POST"), "/pdf", m.PdfRequest, "The page as PDF; raw=true answers the PDF bytes",
          reply="binary", mcp=("pinchtab_pdf",), cli=("pdf",)),
    Route("evaluate", ("POST",), "/evaluate", m.EvaluateRequest, "Evaluate JavaScript (needs security.allowEvaluate)",
          gate=EVALUATE, mcp=("pinchtab_eval",), cli=("eval",)),
    Route("cookies", ("GET",), "/cookies", m.CookiesQuery, "Cookies of the page (needs security.allowCookies)",
          gate=COOKIES, mcp=("pinchtab_cookies",), cli=("cookies",)),
    Route("set_cookies", ("POST",), "/cookies", m.SetCookiesRequest, "Set cookies (needs security.allowCookies)",
          gate=COOKIES, per_instance=True),
    Route("wait", ("POST",), "/wait", m.WaitRequest, "Wait for a selector, text, text gone, URL, load state, JS condition or time (capped at 30 s)",
          mcp=("pinchtab_wait_for_selector", "pinchtab_wait_for_text", "pinchtab_wait_for_url",
               "pinchtab_wait_for_load", "pinchtab_wait_for_function"), cli=("wait",)),
    Route("browser_restart", ("POST",), "/browser/restart", None, "Start a fresh Chromium (tabs are lost)",
          owner="bridge_only", tabbed=False),
)
