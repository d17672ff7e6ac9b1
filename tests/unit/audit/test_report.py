"""The audit package without a browser: rule names and scores, sampling, security rules, sitemaps,
report assembly, Markdown and compare."""

from __future__ import annotations

import base64
import io
from datetime import datetime, timezone

import pytest
from PIL import Image

from pinchtab.audit import a11y, compare, render, report, sample, security, sitemap

WHEN = datetime(2026, 7, 4, 12, 0, tzinfo=timezone.utc)


def test_axe_violations_take_pinchtab_names_weights_and_order() -> None:
    got = a11y.score([
        {"id": "link-name", "targets": ["a:nth-child(3)"]},
        {"id": "image-alt", "targets": ["img", "#hero"]},
        {"id": "region", "targets": ["body > p"]},  # a rule PinchTab has no name for: not counted
        {"id": "heading-order", "targets": ["h4"]},
    ])
    assert got == {"score": 100 - 2 * 10 - 5 - 2, "findings": [
        {"rule": "empty-link", "severity": "moderate", "count": 1, "samples": ["a:nth-child(3)"]},
        {"rule": "heading-skip", "severity": "minor", "count": 1, "samples": ["h4"]},
        {"rule": "missing-alt", "severity": "serious", "count": 2, "samples": ["img", "#hero"]},
    ]}
    assert a11y.score([{"id": "label", "targets": [f"#i{n}" for n in range(12)]}])["score"] == 0
    assert a11y.score([])["score"] == 100
    assert a11y.axe_source().startswith(f"/*! axe v{a11y.AXE_VERSION}")


def test_sampling_keeps_entry_and_ungrouped_pages_and_picks_per_template() -> None:
    site = "http://s/"
    urls = [site + p for p in ("index.html", "products/p3.html", "a11y-issues.html", "products/p1.html",
                               "products/p2.html", "index.html", "blog/2024/post-7.html")]
    urls.insert(3, "")
    assert sample.plan(urls, 2) == [site + p for p in ("index.html", "a11y-issues.html", "blog/2024/post-7.html",
                                                       "products/p1.html", "products/p2.html")]
    assert sample.plan(urls, 0)[-3:] == [site + f"products/p{i}.html" for i in (1, 2, 3)]
    # An entry page in a template group counts toward its quota.
    assert sample.plan([site + "products/p9.html", site + "products/p1.html"], 1) == [site + "products/p9.html"]
    assert sample.plan([]) == []


def test_security_rules() -> None:
    forms = [{"action": "http://x/login", "hasPassword": True}, {"action": "http://x/search", "hasPassword": False}]
    requests = [{"url": "https://x/", "status": 200}, {"url": "http://cdn/x.js", "status": 200},
                {"url": "https://x/.git/config", "status": 200}, {"url": "https://x/.env", "status": 404}]
    rules = [(f["ruleId"], f["severity"]) for f in security.evaluate("https://x/", "Index of /files", requests, forms)]
    assert rules == [("mixed-content", "high"), ("insecure-password-form", "high"),
                     ("insecure-form-action", "medium"), ("exposed-endpoint", "medium"),
                     ("directory-listing", "low")]
    assert security.evaluate("http://x/", "Home", requests[:2], forms[1:]) == []


def test_sitemap_parse() -> None:
    ns = 'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"'
    assert sitemap.parse(f"<urlset {ns}><url><loc> http://a/1 </loc></url><url><loc>http://a/2</loc></url></urlset>".encode()) \
        == (["http://a/1", "http://a/2"], [])
    assert sitemap.parse(f"<sitemapindex {ns}><sitemap><loc>http://a/s.xml</loc></sitemap></sitemapindex>".encode()) \
        == ([], ["http://a/s.xml"])
    for bad in (b"<html></html>", b"not xml"):
        with pytest.raises(sitemap.SitemapError, match="not a sitemap"):
            sitemap.parse(bad)


def _page(url: str, *, score: int = 100, error: str = "", load: float = 100.0, broken: int = 0,
          console_errors: int = 0, shot: str = "") -> dict:
    collected = report.Collected(url=url, title=url.rsplit("/", 1)[-1], screenshot=shot or None,
                                 console=[{"level": "error", "message": "boom"}] * console_errors,
                                 broken=[{"url": f"{url}/{i}.png", "resourceType": "image", "statusCode": 404}
                                         for i in range(broken)],
                                 a11y={"score": score, "findings": []}, timing={"loadMs": load, "fcpMs": 0})
    return report.page_result(report.page_error(url, error) if error else report.page_audit(collected))


def test_report_shape_summary_and_markdown() -> None:
    pages = [_page("http://s/a", score=70, broken=1, console_errors=1), _page("http://s/b"),
             _page("http://s/c", error="navigation failed")]
    pages[0]["securityFindings"] = [{"ruleId": "insecure-password-form", "severity": "high", "detail": "d",
                                     "url": "http://s/a"}]
    built = report.build(pages, input={"urls": ["http://s/a"]}, generated_at=WHEN,
                         options={"sampleSize": 0, "screenshot": False, "networkMonitor": True, "concurrency": 2})
    assert built["generatedAt"] == "2026-07-04T12:00:00Z" and built["summaryScore"] == 85
    assert built["options"] == {"networkMonitor": True, "concurrency": 2}
    assert built["securityFindings"] == pages[0]["securityFindings"]
    assert pages[0]["browser"] == {"consoleLogs": [{"timestamp": None, "level": "error", "message": "boom"}],
                                   "brokenAssets": [{"url": "http://s/a/0.png", "resourceType": "image", "status": 404}],
                                   "accessibilityScore": 70, "timingMetrics": {"loadMs": 100.0}}
    assert pages[2] == {"url": "http://s/c", "error": "navigation failed", "browser": {"timingMetrics": {}}}
    md = render.audit_report(built, "md")
    assert "**Summary score: 85/100**" in md and "| http://s/c | 0 | - | 0 | 0 | error: navigation failed |" in md
    assert "## Broken Assets" in md and "1. Serve the site over https." in md
    assert "Re-check 1 page(s) that failed to audit." in md
    pages[1]["browser"]["screenshotPath"] = "screenshots/001-b.png"
    page = render.audit_report(built, "html")
    assert page.startswith("<!doctype html>") and "<style>" in page and 'src="screenshots/001-b.png"' in page
    assert "<li><code>error</code> boom</li>" in page and "<strong>insecure-password-form</strong>" in page
    assert "<h2>Broken Assets</h2>" in page and "http://" not in page.split("<body>")[0]


def _png(colour: tuple[int, int, int], box: tuple[int, int, int, int] | None = None) -> str:
    img = Image.new("RGB", (40, 20), colour)
    if box:
        img.paste((0, 0, 0), box)
    out = io.BytesIO()
    img.save(out, "PNG")
    return base64.b64encode(out.getvalue()).decode()


def test_compare_pairs_pages_and_diffs_pixels_and_data() -> None:
    live = {"pages": [_page("http://live/", shot=_png((255, 255, 255))),
                      _page("http://live/a", shot=_png((255, 255, 255)), load=100),
                      _page("http://live/gone")]}
    staging = {"pages": [_page("http://stage/", shot=_png((255, 255, 255))),
                         _page("http://stage/a", shot=_png((255, 255, 255), (0, 0, 10, 10)), load=5000, score=90),
                         _page("http://stage/new")]}
    got, images = compare.compare("http://live", "http://stage/", live, staging, generated_at=WHEN)
    assert [(p["path"], p["status"]) for p in got["pages"]] == [
        ("", "compared"), ("a", "compared"), ("gone", "removed"), ("new", "added")]
    same, changed = got["pages"][:2]
    assert same["diffPercentage"] == 0 and same["drift"] == []
    assert changed["diffPercentage"] == 12.5  # 10x10 of 40x20
    assert [d["field"] for d in changed["drift"]] == ["accessibilityScore", "loadMs"]
    assert got["hasDiffs"] and list(images) == ["a"] and images["a"].startswith(b"\x89PNG")
    assert "| a | compared | 12.50 % | accessibilityScore: 100 → 90, loadMs: 100 → 5000 |  |" in \
        render.comparison_report(got, "md")
    assert "<td>12.50 %</td>" in render.comparison_report(got, "html")
