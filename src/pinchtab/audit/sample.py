"""Which pages a run audits: the URL list deduplicated, then sampled by URL template.

A template is the URL's scheme, host and path with digit runs read as ``#`` (``/products/p1.html`` and
``/products/p2.html`` share ``/products/p#.html``); two or more pages sharing one make a group. The entry
page (the first) comes first, then every page of no group in input order, then at most ``sample_size``
pages of each group (in URL order; an entry page in a group counts), groups in first-seen order.
The same input gives the same plan.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

_DIGITS = re.compile(r"\d+")


def dedupe(urls: list[str]) -> list[str]:
    return list(dict.fromkeys(u for u in urls if u))


def template(url: str) -> str:
    parts = urlsplit(url)
    if not parts.netloc:
        return _DIGITS.sub("#", url)
    return f"{parts.scheme}://{parts.netloc}{_DIGITS.sub('#', parts.path)}"


def plan(urls: list[str], sample_size: int = 0) -> list[str]:
    urls = dedupe(urls)
    if not urls:
        return []
    groups: dict[str, list[str]] = {}
    for u in urls:
        groups.setdefault(template(u), []).append(u)
    grouped = {u: t for t, members in groups.items() if len(members) > 1 for u in members}
    entry = urls[0]
    out = [entry] + [u for u in urls[1:] if u not in grouped]
    taken = {entry}
    for t, members in groups.items():
        if len(members) < 2:
            continue
        picked = 1 if grouped.get(entry) == t else 0
        for u in sorted(members):
            if sample_size > 0 and picked >= sample_size:
                break
            if u in taken:
                continue
            out.append(u)
            taken.add(u)
            picked += 1
    return out
