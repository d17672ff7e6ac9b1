"""Site audits and comparisons (PinchTab's ``audit`` and ``compare``): what a report holds and how it is
built, from data the browser layer collects. Knows nothing of the browser or of HTTP: the collection
is in ``browser/service/audit.py``; the JavaScript it runs in pages (axe-core, form facts) is here as
data, since the rules it feeds are defined here.

Same input, same report: pages keep their planned order, findings are sorted, and the only volatile
fields are ``generatedAt``, timings, timestamps and screenshots (which ``compare`` never diffs as text).
"""

SCHEMA_VERSION = "1.0"
