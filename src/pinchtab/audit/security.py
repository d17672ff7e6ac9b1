"""PinchTab's security rules, computed offline from what an audit already collects (the page URL and
title, its requests, its forms), in this order, items in page order:

- ``mixed-content`` (high): an https page loading http:// subresources.
- ``insecure-form-action`` (medium): a form without a password on an https page posting to http://.
- ``insecure-password-form`` (high): a form with a password input whose action is http://.
- ``exposed-endpoint`` (medium): a sensitive path (.env, .git, ...) answering below 400.
- ``directory-listing`` (low): a page titled "Index of /...".
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

# Runs in the page: each form's resolved action, method and whether it holds a password input.
FORM_FACTS_JS = r"""function () {
  return Array.from(document.forms).map((f) => ({
    action: f.action || '', method: (f.method || 'get').toLowerCase(),
    hasPassword: !!f.querySelector('input[type="password"]'),
  }));
}"""

EXPOSED_PATHS = (".env", ".git", ".htaccess", ".htpasswd", "wp-config.php", "id_rsa")


def _scheme(url: str) -> str:
    return url.split(":", 1)[0].lower() if ":" in url else ""


def _finding(rule: str, severity: str, detail: str, page_url: str) -> dict[str, str]:
    return {"ruleId": rule, "severity": severity, "detail": detail, "url": page_url}


def evaluate(page_url: str, title: str, requests: list[dict[str, Any]], forms: list[dict[str, Any]]) -> list[dict[str, str]]:
    findings = []
    secure = _scheme(page_url) == "https"
    if secure:
        findings += [_finding("mixed-content", "high", f"https page loads insecure subresource {r['url']}", page_url)
                     for r in requests if r["url"] != page_url and _scheme(r["url"]) == "http"]
    for form in forms:
        action = str(form.get("action") or "")
        if secure and _scheme(action) == "http" and not form.get("hasPassword"):
            findings.append(_finding("insecure-form-action", "medium",
                                     f"form on https page submits to insecure {action}", page_url))
        if form.get("hasPassword") and _scheme(action) == "http":
            findings.append(_finding("insecure-password-form", "high",
                                     f"password form submits over plain http to {action}", page_url))
    for r in requests:
        status = r.get("status") or 0
        if not 0 < status < 400:
            continue
        path = urlsplit(r["url"]).path.lower()
        marker = next((m for m in EXPOSED_PATHS if m in path), None)
        if marker:
            findings.append(_finding("exposed-endpoint", "medium",
                                     f'sensitive path "{marker}" answered {status} at {r["url"]}', page_url))
    if title.strip().startswith("Index of /"):
        findings.append(_finding("directory-listing", "low", f'server directory listing exposed ("{title.strip()}")',
                                 page_url))
    return findings
