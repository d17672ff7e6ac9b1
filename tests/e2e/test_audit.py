"""Audits on a real Chromium and local pages (tests/fixtures/pages/audit): one page, a run over a URL
list and a sitemap, the accessibility audit of the current tab, broken assets of the network log,
the CLI's report files and compare."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from tests.fixtures.harness import free_port, serve

NO_SHOTS = {"screenshot": False}
NOWHERE = f"http://127.0.0.1:{free_port()}"  # nothing listens there: its pages fail at once
DOWN = f"{NOWHERE}/down.html"


@pytest.fixture(scope="module", autouse=True)
def quick_settle(bridge_config: Any) -> Iterator[None]:
    """An audited page's network quiet for 0.1 s instead of 0.5 s before collecting: these pages
    request everything before their load event, and each of the module's eight page audits waits for it."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(bridge_config.browser, "audit_quiet_ms", 100)
        yield


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


def test_unreachable_page_is_an_entry_with_error(http: httpx.Client) -> None:
    down = http.post("/audit/page", json={"url": DOWN}).json()
    assert down["url"] == DOWN and "ERR_CONNECTION_REFUSED" in down["error"]
    assert http.post("/audit/page", json={}).status_code == 400


def _stable(page: dict) -> dict:
    """A page entry without what two loads of the same page may differ in: timings, timestamps, sizes,
    the order requests finished in, refs."""
    b = page["browser"]
    b["timingMetrics"] = {}
    b["consoleLogs"] = [(e["level"], e["message"]) for e in b.get("consoleLogs", ())]
    b["networkRequests"] = sorted((e["url"], e.get("status")) for e in b.get("networkRequests", ()))
    b["brokenAssets"] = sorted(b.get("brokenAssets", ()), key=lambda a: a["url"])
    for e in b.get("interactiveElements", ()):
        e.pop("ref")
    page.pop("screenshot", None)
    return page


def run_is_ordered_sampled_and_reproducible(http: httpx.Client, pages: str, issues: dict) -> None:
    urls = [f"{pages}/audit/clean.html", f"{NOWHERE}/products/p2.html", f"{NOWHERE}/products/p1.html",
            f"{pages}/audit/issues.html", DOWN]
    report = http.post("/audit", json={"urls": urls, "options": NO_SHOTS, "concurrency": 3, "sampleSize": 1}).json()
    assert report["schemaVersion"] == "1.0" and report["input"] == {"urls": urls}
    assert report["options"] == {"sampleSize": 1, "networkMonitor": True, "concurrency": 3}
    # The entry page, the pages of no template in input order, then the template's first page by URL.
    assert [p["url"] for p in report["pages"]] == [urls[0], urls[3], DOWN, urls[2]]
    assert report["summaryScore"] == (100 + 70) // 2 and report["pages"][2]["error"]
    assert "screenshot" not in report["pages"][0] and report["pages"][0]["browser"]["networkRequests"]
    assert [f["ruleId"] for f in report["securityFindings"]] == ["insecure-password-form"]
    # Same page, same entry: the run's issues.html is /audit/page's, moved under "browser".
    from pinchtab.audit.report import page_result

    assert _stable(report["pages"][1]) == _stable(page_result(dict(issues)))


def test_sitemap_run_and_empty_sitemap(http: httpx.Client, tmp_path: Path) -> None:
    site = f"{NOWHERE}/products"  # pages that fail at once: this is about which ones are audited
    locs = "".join(f"<url><loc>{site}/p{i}.html</loc></url>" for i in (2, 1))
    (tmp_path / "sitemap.xml").write_text(f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{locs}</urlset>')
    (tmp_path / "index.xml").write_text('<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
                                        '<sitemap><loc>SITEMAP</loc></sitemap></sitemapindex>')
    (tmp_path / "empty.xml").write_text('<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>')
    base, server = serve(tmp_path)
    (tmp_path / "index.xml").write_text((tmp_path / "index.xml").read_text().replace("SITEMAP", f"{base}/sitemap.xml"))
    try:
        mapped = http.post("/audit", json={"sitemapUrl": f"{base}/index.xml", "options": NO_SHOTS,
                                           "sampleSize": 1}).json()
        assert [p["url"] for p in mapped["pages"]] == [f"{site}/p2.html"]  # the entry page fills the quota
        assert mapped["input"] == {"sitemapUrl": f"{base}/index.xml"}
        empty = http.post("/audit", json={"sitemapUrl": f"{base}/empty.xml"})
        assert empty.status_code == 400 and "no URLs to audit" in empty.json()["error"]
        missing = http.post("/audit", json={"sitemapUrl": f"{base}/nope.xml"})
        assert missing.status_code == 400 and "404" in missing.json()["error"]
    finally:
        server.shutdown()
    assert http.post("/audit", json={}).status_code == 400


def test_a11y_audit_and_broken_assets_of_a_tab_and_a_run_beside_it(http: httpx.Client, pages: str,
                                                                  issues: dict) -> None:
    tab = http.post("/navigate", json={"url": f"{pages}/audit/issues.html", "newTab": True}).json()["tabId"]
    try:
        first = http.get(f"/tabs/{tab}/a11y/audit").json()
        assert first["tabId"] == tab and first["score"] == 70
        assert first["findings"][2] == {"rule": "missing-alt", "severity": "serious", "count": 1,
                                     "samples": ["img:nth-child(2)"]}
        # An audit's own tabs never become current: the shorthand still reads this tab. The run (its
        # unreachable page an entry with error) is the one audit of this check (a run of its own
        # was one more tab).
        run_is_ordered_sampled_and_reproducible(http, pages, issues)
        assert http.get("/a11y/audit").json() == first
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
                            "--format", "pdf", "--network-monitor=false", *server])
    assert res.exit_code == 0, res.output
    report = json.loads((tmp_path / "a" / "report.json").read_text())
    shot = report["pages"][0]["browser"]["screenshotPath"]
    assert (tmp_path / "a" / shot).read_bytes().startswith(b"\x89PNG") and "screenshot" not in report["pages"][0]
    assert "networkRequests" not in report["pages"][0]["browser"] and report["summaryScore"] == 70
    pdf = (tmp_path / "a" / "report.pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(pdf) > 10_000  # the screenshot is in it

    differs = cli.invoke(main, ["compare", f"{pages}/audit/products", f"{pages}/audit", "--pages", "p1.html",
                                "--fail-on-diff", "--output-dir", str(tmp_path / "c"), *server])
    assert differs.exit_code == 1, differs.output
    pairs = json.loads((tmp_path / "c" / "report.json").read_text())["pages"]
    # products/p1.html against audit/p1.html, a 404 page: another picture, a broken document
    assert [(p["path"], p["status"]) for p in pairs] == [("p1.html", "compared")]
    # loadMs is drift too when one load took over a second longer (a loaded machine): a timing, not checked
    assert {d["field"] for d in pairs[0]["drift"]} - {"loadMs"} == {"brokenAssets"}
    assert pairs[0]["diffPercentage"] > 0 and (tmp_path / "c" / pairs[0]["diffImagePath"]).is_file()


def test_seaportal_results_send_to_the_browser_only_the_pages_it_recommends(http: httpx.Client, pages: str,
                                                                         tmp_path: Path) -> None:
    from pinchtab.audit.render import audit_report
    from pinchtab.cli import main

    clean_url, issues_url = f"{pages}/audit/clean.html", f"{pages}/audit/issues.html"
    clean = {"url": clean_url, "title": "Clean (crawler)", "description": "static", "confidence": 95, "statusCode": 200,
             "quality": 0.9, "profile": {"decision": "browser-needed", "browserRecommended": True}}
    issues = {"url": issues_url, "title": "Issues (crawler)", "description": "has defects", "confidence": 60,
              "statusCode": 200, "quality": 0.7, "profile": {"decision": "static-high-confidence",
                                                             "browserRecommended": False}}
    file = tmp_path / "seaportal.json"
    file.write_text(json.dumps([clean, issues, {"title": "an entry without a url is dropped"}]))
    res = CliRunner().invoke(main, ["audit", "--seaportal-report", str(file), "--json", "--screenshot=false",
                                    "--server", str(http.base_url).rstrip("/"), "--no-start"])
    assert res.exit_code == 0, res.output
    report = json.loads(res.output)
    assert report["input"] == {"seaportalFile": str(file), "seaportalFormat": "seaportal-results/v0"}
    audited, summary_only = report["pages"]
    assert summary_only == {"url": issues_url, "title": "Issues (crawler)", "statusCode": 200, "browser": {},
                            "seaportal": {"title": "Issues (crawler)", "description": "has defects", "confidence": 60,
                                          "quality": 0.7, "decision": "static-high-confidence",
                                          "browserRecommended": False}}
    assert audited["title"] == "Clean" and audited["browser"]["accessibilityScore"] == 100
    assert audited["seaportal"]["description"] == "static" and audited["statusCode"] == 200
    assert report["summaryScore"] == 100  # the page the browser did not audit is not scored
    digest = audit_report(report, "md")
    assert "## SEO & Metadata" in digest and "- browserRecommended: false" in digest
    not_recommended = {**clean, "profile": {"browserRecommended": False}}
    enriched = http.post("/audit", json={"seaportalResults": [not_recommended], "enrichAll": True, "options": NO_SHOTS})
    (page,) = enriched.json()["pages"]
    assert page["title"] == "Clean" and page["browser"]["accessibilityScore"] == 100 and page["seaportal"]["quality"] == 0.9
