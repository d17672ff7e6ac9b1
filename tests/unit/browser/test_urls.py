"""URL rules for navigation (no browser)."""

from __future__ import annotations

import pytest

from pinchtab.browser.core.urls import normalize_url
from pinchtab.errors import BadRequest


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("example.com", "https://example.com"),
        ("www.example.com/path?q=1#top", "https://www.example.com/path?q=1#top"),
        ("example.com:8443/x", "https://example.com:8443/x"),
        ("  example.com  ", "https://example.com"),
        ("localhost", "http://localhost"),
        ("localhost:8080", "http://localhost:8080"),
        ("localhost:8080/app?x=1", "http://localhost:8080/app?x=1"),
        ("127.0.0.1:9000/x", "http://127.0.0.1:9000/x"),
        ("[::1]:8080", "http://[::1]:8080"),
    ],
)
def test_bare_hosts_get_a_scheme(given: str, expected: str) -> None:
    assert normalize_url(given) == expected


@pytest.mark.parametrize(
    "url",
    ["http://example.com", "https://example.com/a?b=c", "HTTPS://EXAMPLE.COM/", "http://127.0.0.1:8080/", "about:blank"],
)
def test_allowed_urls_pass_unchanged(url: str) -> None:
    assert normalize_url(url) == url


@pytest.mark.parametrize(
    "url",
    [
        "javascript:alert(1)",
        "JavaScript:alert(document.cookie)",
        "file:///etc/passwd",
        "data:text/html,<h1>hi</h1>",
        "chrome://version",
        "chrome-extension://abc/page.html",
        "view-source:https://example.com",
        "about:config",
        "ftp://example.com/file",
        "mailto:someone@example.com",
    ],
)
def test_other_schemes_are_refused(url: str) -> None:
    with pytest.raises(BadRequest) as info:
        normalize_url(url)
    assert info.value.status == 400
    assert info.value.code == "scheme_not_allowed"
    assert "http://" in info.value.message  # says what would work


@pytest.mark.parametrize("url", ["javascript:1", "javascript:0//example.com/", "data:1"])
def test_scheme_lookalike_host_port_is_still_refused(url: str) -> None:
    # "scheme:digits" looks like host:port; it must not become https://javascript:1
    with pytest.raises(BadRequest):
        normalize_url(url)


@pytest.mark.parametrize(
    "url", ["not a url", "foo", "http://", "https:///path", "http:/example.com", "://example.com", "exa mple.com", "..."]
)
def test_garbage_is_refused(url: str) -> None:
    with pytest.raises(BadRequest) as info:
        normalize_url(url)
    assert info.value.code in ("invalid_url", "scheme_not_allowed")


@pytest.mark.parametrize("url", ["", "   ", None, 42, ["http://example.com"]])
def test_missing_or_non_string_url(url: object) -> None:
    with pytest.raises(BadRequest) as info:
        normalize_url(url)
    assert info.value.code == "missing_url"


def test_config_can_allow_more_schemes() -> None:
    assert normalize_url("file:///tmp/page.html", ["file"]) == "file:///tmp/page.html"
    assert normalize_url("data:text/html,hi", ["data:"]) == "data:text/html,hi"
    with pytest.raises(BadRequest):
        normalize_url("javascript:alert(1)", ["file"])


@pytest.mark.parametrize("url", ["http://[::1", "http://127.0.0.1:99999/", "http://%zz", "http://a b/",
                                 "http://127.0.0.1:0/", "localhost:0", "https://exa%41mple.com/"])
def test_malformed_hosts_are_400_not_500(url: str) -> None:
    # Issue 16: these were a ValueError traceback (500) or Chromium's cdp_error (500).
    with pytest.raises(BadRequest) as info:
        normalize_url(url)
    assert info.value.code == "invalid_url"
