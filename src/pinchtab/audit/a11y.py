"""Accessibility findings from axe-core (vendored: ``vendor/axe.min.js``, MPL-2.0, its licence beside it),
named and scored as PinchTab names and scores them.

Only the axe rules behind PinchTab's rules run: a page PinchTab scores 100 scores 100 here (axe's
best-practice rules, such as ``region``, would mark pages PinchTab calls clean). Each axe rule maps to
PinchTab's rule id and severity; the score is ``100 - sum(weight(severity) * count)``, floored at 0.
"""

from __future__ import annotations

import functools
from importlib import resources
from typing import Any

AXE_VERSION = "4.14.1"

# axe rule -> (PinchTab rule, severity)
RULES: dict[str, tuple[str, str]] = {
    "image-alt": ("missing-alt", "serious"),
    "input-image-alt": ("missing-alt", "serious"),
    "role-img-alt": ("missing-alt", "serious"),
    "label": ("missing-label", "serious"),
    "select-name": ("missing-label", "serious"),
    "aria-input-field-name": ("missing-label", "serious"),
    "link-name": ("empty-link", "moderate"),
    "button-name": ("empty-button", "moderate"),
    "input-button-name": ("empty-button", "moderate"),
    "document-title": ("missing-title", "moderate"),
    "html-has-lang": ("missing-lang", "moderate"),
    "heading-order": ("heading-skip", "minor"),
}
WEIGHTS = {"serious": 10, "moderate": 5, "minor": 2}
MAX_SAMPLES = 5

# Runs in the page once axe is loaded; answers each violated rule with its elements' CSS paths in
# document order (axe's own order), nothing that changes between two runs on the same page.
AXE_RUN_JS = r"""async function (rules) {
  const result = await axe.run(document, {
    runOnly: {type: 'rule', values: rules}, resultTypes: ['violations'], iframes: false, elementRef: false,
  });
  return result.violations.map((v) => ({id: v.id, targets: v.nodes.map((n) => n.target.join(' '))}));
}"""


@functools.cache
def axe_source() -> str:
    return (resources.files("pinchtab.audit") / "vendor" / "axe.min.js").read_text(encoding="utf-8")


def score(violations: list[dict[str, Any]]) -> dict[str, Any]:
    """``{score, findings}`` from ``AXE_RUN_JS``'s answer: findings sorted by rule, samples in page order."""
    findings: dict[str, dict[str, Any]] = {}
    for violation in violations:
        rule, severity = RULES.get(violation.get("id", ""), ("", ""))
        if not rule:
            continue
        finding = findings.setdefault(rule, {"rule": rule, "severity": severity, "count": 0, "samples": []})
        for target in violation.get("targets") or []:
            finding["count"] += 1
            if len(finding["samples"]) < MAX_SAMPLES:
                finding["samples"].append(target)
    total = 100 - sum(WEIGHTS[f["severity"]] * f["count"] for f in findings.values())
    return {"score": max(total, 0), "findings": [findings[k] for k in sorted(findings)]}
