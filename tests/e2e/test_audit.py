"""Audits on a real Chromium and local pages (tests/fixtures/pages/audit): one page, a run over a URL
list and a sitemap, the accessibility audit of the current tab, broken assets of the network log,
the CLI's report files and compare."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from click.testing import CliRunner

from tests.fixtures.harness import free_port, serve

NO_SHOTS = {"screenshot": False}
DOWN = f"http://127.0.0.1:{free_port()}/down.html"  # nothing listens there


@pytest.fixture(scope="module")
def issues(http: httpx.Client, pages: str) -> dict:
    res = http.post("/audit/page", json={"url": f"{pages}/audit/issues.html"})
    assert res.status_code == 200, res.text
    return res.json()


def test_page_audit_collects_each_defect(issues: dict, pages: str) -> None:
    assert issues["url"] == f"{pages}/audit/issues.html" and issues["title"] == "Issues" and "error" not in issues
    assert issues["accessibilityScore"] == 70
    assert [(f["rule"], f["count"]) for f in issues["a11yFindings"]] == [
        ("empty-button", 1), ("empty-link", 1), ("missing-alt", 1), ("missing-label", 1)]
    broken = {(a["url"].rsplit("/", 1)[-1], a["resourceType"], a["status"]) for a in issues["brokenAssets"]}
    assert broken == {("gone.css", "stylesheet", 404), ("gone.png", "image", 404), ("gone.json", "fetch", 404)}
    assert {"error", "warning"} <= {e["level"] for e in issues["consoleLogs"]}
    assert [f["ruleId"] for f in issues["securityFindings"]] == ["insecure-password-form"]
    assert issues["timingMetrics"]["loadMs"] > 0 and issues["screenshot"]
    roles = [e["role"] for e in issues["interactiveElements"]]
    assert {"textbox", "link", "button"} <= set(roles)


def test_page_audit_options_and_unreachable(http: httpx.Client, pages: str) -> None:
    res = http.post("/audit/page", json={"url": f"{pages}/audit/clean.html",
                                         "options": {"screenshot": False, "network": False}})
    clean = res.json()
    assert "screenshot" not in clean and "networkRequests" not in clean
    assert clean["accessibilityScore"] == 100 and "a11yFindings" not in clean and "securityFindings" not in clean
    down = http.post("/audit/page", json={"url": DOWN}).json()
    assert down["url"] == DOWN and "ERR_CONNECTION_REFUSED" in down["error"]
    assert http.post("/audit/page", json={}).status_code == 400


def test_run_is_ordered_sampled_and_reproducible(http: httpx.Client, pages: str, tmp_path: Path) -> None:
    urls = [f"{pages}/audit/clean.html", *(f"{pages}/audit/products/p{i}.html" for i in (3, 1, 2)),
            f"{pages}/audit/issues.html", DOWN]
    body = {"urls": urls, "options": NO_SHOTS, "concurrency": 3, "sampleSize": 2}
    report = http.post("/audit", json=body).json()
    assert report["schemaVersion"] == "1.0" and report["options"] == {"sampleSize": 2, "networkMonitor": True,
                                                                         "concurrency": 3}
    got = [p["url"].removeprefix(f"{pages}/audit/") for p in report["pages"]]
    assert got == ["clean.html", "issues.html", DOWN, "products/p1.html",
                   "products/p2.html"]
    assert report["summaryScore"] == (100 + 70 + 100 + 100) // 4
    assert report["pages"][2]["error"] and report["pages"][0]["browser"]["accessibilityScore"] == 100
    assert [f["ruleId"] for f in report["securityFindings"]] == ["insecure-password-form"]

    def stable(r: dict) -> str:  # what two runs may differ in: time, timings, request timestamps, sizes
        for p in r["pages"]:
            b = p["browser"]
            b["timingMetrics"] = {}
            b["consoleLogs"] = [(e["level"], e["message"]) for e in b.get("consoleLogs", ())]
            b["networkRequests"] = sorted((e["url"], e.get("status")) for e in b.get("networkRequests", ()))
            b["brokenAssets"] = sorted(b.get("brokenAssets", ()), key=lambda a: a["url"])
            for e in b.get("interactiveElements", ()):
                e.pop("ref")
        return json.dumps({**r, "generatedAt": ""}, sort_keys=True)

    again = http.post("/audit", json={**body, "concurrency": 1}).json()
    again["options"]["concurrency"] = 3
    assert stable(again) == stable(report)

    sitemap_dir = tmp_path / "site"
    sitemap_dir.mkdir()
    locs = "".join(f"<url><loc>{u}</loc></url>" for u in urls[:4])
    (sitemap_dir / "sitemap.xml").write_text(f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>')
    (sitemap_dir / "empty.xml").write_text('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>')
    base, server = serve(sitemap_dir)
    try:
        mapped = http.post("/audit", json={"sitemapUrl": f"{base}/sitemap.xml", "options": NO_SHOTS,
                                           "sampleSize": 1}).json()
        assert [p["url"] for p in mapped["pages"]] == [urls[0], urls[2]]
        assert mapped["input"] == {"sitemapUrl": f"{base}/sitemap.xml"}
        empty = http.post("/audit", json={"sitemapUrl": f"{base}/empty.xml"})
        assert empty.status_code == 400 and "no URLs to audit" in empty.json()["error"]
    finally:
        server.shutdown()
    assert http.post("/audit", json={}).status_code == 400


def test_a11y_audit_and_broken_assets_of_a_tab(http: httpx.Client, pages: str) -> None:
    tab = http.post("/navigate", json={"url": f"{pages}/audit/issues.html", "newTab": True}).json()["tabId"]
    try:
        first = http.get(f"/tabs/{tab}/a11y/audit").json()
        assert first["tabId"] == tab and first["score"] == 70
        assert first["findings"][2] == {"rule": "missing-alt", "severity": "serious", "count": 1,
                                     "samples": ["img:nth-child(2)"]}
        assert http.get("/a11y/audit", params={"tabId": tab}).json() == first
        broken = http.get("/network", params={"tabId": tab, "broken": "true"}).json()
        assert broken["count"] == len(broken["broken"]) >= 2
        assert all(b["statusCode"] == 404 for b in broken["broken"])
    finally:
        http.post(f"/tabs/{tab}/close")


def test_cli_audit_and_compare_write_reports(http: httpx.Client, pages: str, tmp_path: Path) -> None:
    from pinchtab.cli import main

    cli = CliRunner()
    server = ["--server", str(http.base_url).rstrip("/"), "--no-start"]
    res = cli.invoke(main, ["audit", f"{pages}/audit/issues.html", "--output-dir", str(tmp_path / "a"),
                            "--format", "md", *server])
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "a" / "report.json").read_text())
    shot = report["pages"][0]["browser"]["screenshotPath"]
    assert (tmp_path / "a" / shot).read_bytes().startswith(b"\x89PNG") and "screenshot" not in report["pages"][0]
    md = (tmp_path / "a" / "report.md").read_text()
    assert "**Summary score: 70/100**" in md and "## Broken Assets" in md and "insecure-password-form" in md

    same = cli.invoke(main, ["compare", f"{pages}/audit", f"{pages}/audit", "--pages", "clean.html",
                             "--fail-on-diff", "--json", *server])
    assert same.exit_code == 0, same.output
    page = json.loads(same.output)["pages"][0]
    assert page["path"] == "clean.html" and page["diffPercentage"] == 0 and page["drift"] == []
    differs = cli.invoke(main, ["compare", f"{pages}/audit/products", f"{pages}/audit", "--pages", "p1.html,clean.html",
                                "--fail-on-diff", "--output-dir", str(tmp_path / "c"), *server])
    assert differs.exit_code == 1, differs.output
    pairs = json.loads((tmp_path / "c" / "report.json").read_text())["pages"]
    assert [p["status"] for p in pairs] == ["compared", "compared"]
    assert pairs[0]["diffPercentage"] > 0 and (tmp_path / "c" / pairs[0]["diffImagePath"]).is_file()
