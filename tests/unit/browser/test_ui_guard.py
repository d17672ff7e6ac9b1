from pinchtab.browser.core.ui_guard import UiGuard, is_browser_ui


def test_browser_pages_are_recognised() -> None:
    for url in ("chrome://history/", "CHROME://settings", "view-source:http://x.test/", "devtools://devtools/x",
                "chrome-extension://abc/p.html", "chrome-untrusted://print/", "about:history", "about:settings"):
        assert is_browser_ui(url), url
    for url in ("about:blank", "about:srcdoc", "http://chrome.test/", "https://x.test/chrome://", "", None, "data:text/html,x"):
        assert not is_browser_ui(url), url


def test_which_presses_may_open_one() -> None:
    guard = UiGuard(lambda *a: None, lambda t: None)
    assert guard.may_open_ui("press", "Control+h") and guard.may_open_ui("press", "Alt+Home")
    assert not guard.may_open_ui("press", "Enter") and not guard.may_open_ui("press", "Shift+a")
    assert not guard.may_open_ui("press", "+") and not guard.may_open_ui("click", "Control+h")
