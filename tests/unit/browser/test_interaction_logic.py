"""Pure parts of the interaction work: upload decoding and path rules, download host rules, config."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from pinchtab.browser.content import fetch_url, uploads
from pinchtab.browser.core.state_files import safe_file
from pinchtab.config import load_config
from pinchtab.errors import BadRequest


def test_defaults_are_off_and_safe() -> None:
    c = load_config(environ={})
    sec = c.security
    assert (sec.allow_upload, sec.allow_download, sec.allow_clipboard) == (False, False, False)
    assert sec.download_allowed_domains == [] and sec.upload_allowed_dirs == [] and c.browser.dialogs == "manual"
    env = {"PINCHTAB_ALLOW_UPLOAD": "1", "PINCHTAB_DIALOGS": "accept",
           "PINCHTAB_DOWNLOAD_ALLOWED_DOMAINS": " example.com, *.cdn.test ,"}
    c = load_config(environ=env)
    assert c.security.allow_upload and c.browser.dialogs == "accept"
    assert c.security.download_allowed_domains == ["example.com", "*.cdn.test"]
    with pytest.raises(BadRequest):
        load_config(environ={"PINCHTAB_DIALOGS": "sometimes"})


def test_decode_contents() -> None:
    assert uploads.decode("data:text/plain;base64,aGk=", 0) == (b"hi", ".txt")
    assert uploads.decode("base64:aGk=", 0)[0] == b"hi"
    assert uploads.decode("iVBORw0KGgo=", 0)[1] == ".png"
    for bad in ("data:text/plain,hi", "not base64!"):
        with pytest.raises(BadRequest):
            uploads.decode(bad, 0)


def test_upload_paths_stay_inside_the_allowed_dirs(tmp_path: Path) -> None:
    state, extra, outside = tmp_path / "state", tmp_path / "extra", tmp_path / "outside"
    for d in (state / "uploads", extra, outside):
        d.mkdir(parents=True)
    (state / "uploads" / "a.txt").write_text("a")
    (extra / "b.txt").write_text("b")
    (outside / "c.txt").write_text("c")
    (state / "uploads" / "link.txt").symlink_to(outside / "c.txt")
    config = load_config({"server": {"stateDir": str(state)}, "security": {"uploadAllowedDirs": [str(extra)]}},
                         environ={})
    assert uploads.check_path(config, "a.txt", 0) == (state / "uploads" / "a.txt").resolve()
    assert uploads.check_path(config, "uploads/a.txt", 0).name == "a.txt"
    assert uploads.check_path(config, str(extra / "b.txt"), 0).name == "b.txt"
    for raw, code in ((str(outside / "c.txt"), "path_not_allowed"), ("../../outside/c.txt", "path_not_allowed"),
                      ("link.txt", "invalid_path"), ("nope.txt", "file_not_found"), (str(extra), "invalid_path")):
        with pytest.raises(BadRequest) as err:
            uploads.check_path(config, raw, 0)
        assert err.value.code == code, raw
    with pytest.raises(BadRequest, match="too many files"):
        uploads.prepare(config, ["aGk="] * 9, [])


def test_download_hosts() -> None:
    assert fetch_url.host_allowed("cdn.example.com", ["*.example.com"])
    assert fetch_url.host_allowed("example.com", ["*.example.com"]) and fetch_url.host_allowed("x.y", ["*"])
    assert not fetch_url.host_allowed("evilexample.com", ["*.example.com"])
    sec = load_config(environ={}).security
    for url, words in (("http://127.0.0.1/x", "private/internal"), ("http://[::1]/x", "private/internal"),
                       ("http://169.254.169.254/latest", "private/internal"), ("file:///etc/passwd", "only http"),
                       ("http://10.1.2.3/", "private/internal")):
        with pytest.raises(BadRequest, match=words):
            asyncio.run(fetch_url.check_url(url, sec))
    listed = load_config({"security": {"downloadAllowedDomains": ["127.0.0.1"]}}, environ={}).security
    assert asyncio.run(fetch_url.check_url("http://127.0.0.1:8000/x", listed)) == ("127.0.0.1", None)
    with pytest.raises(BadRequest, match="not allowed"):
        asyncio.run(fetch_url.check_url("http://example.com/", listed))


def test_pinned_request_keeps_host_and_tls_name() -> None:
    url, headers, ext = fetch_url._pinned("https://example.com:8443/a?b=1", "93.184.216.34")
    assert url == "https://93.184.216.34:8443/a?b=1" and headers == {"Host": "example.com:8443"}
    assert ext == {"sni_hostname": "example.com"}


def test_output_files_stay_in_their_folder(tmp_path: Path) -> None:
    assert safe_file(tmp_path, "a/b.png") == (tmp_path / "a" / "b.png").resolve()
    assert safe_file(tmp_path, "/abs.png") == (tmp_path / "abs.png").resolve()
    for bad in ("../x", "a/../../x", ""):
        with pytest.raises(BadRequest):
            safe_file(tmp_path, bad)
