"""The Fetch domain of one tab, shared by the two things that pause requests: resource types
blocked by ``/navigate`` (``blockImages``, ``blockMedia``) and the rules of ``/network/route``
(abort, fulfil or let through the requests whose URL matches a pattern).

Fetch is enabled only while one of them needs it, with the narrowest patterns that serve both.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

from pinchtab.browser.core.urls import host_allowed
from pinchtab.cdp import Session
from pinchtab.errors import BadRequest, NotFound
from pinchtab.globs import Glob

MAX_FULFILL_BODY = 1024 * 1024

# Content types a mocked response may carry: none a browser would run as script in the page's
# origin (no HTML, JavaScript, SVG or XSL).
FULFILL_CONTENT_TYPES = frozenset({
    "application/json", "application/xml", "application/pdf", "application/octet-stream", "text/plain",
    "text/csv", "text/xml", "image/png", "image/jpeg", "image/gif", "image/webp", "video/mp4", "video/webm",
    "audio/mpeg", "audio/ogg", "audio/wav",
})
# A fulfilled response never runs script, whatever its type: an XML body with XHTML script elements
# ran in the page's origin with evaluate off. No script may run in it, and it is never sniffed.
INERT_HEADERS = ({"name": "Content-Security-Policy", "value": "script-src 'none'; object-src 'none'"},
                 {"name": "X-Content-Type-Options", "value": "nosniff"})
RESOURCE_TYPES = ("Document", "Stylesheet", "Image", "Media", "Font", "Script", "TextTrack", "XHR", "Fetch",
                  "Prefetch", "EventSource", "WebSocket", "Manifest", "SignedExchange", "Ping", "CSPViolationReport",
                  "Preflight", "Other")
_RESOURCE_BY_LOWER = {t.lower(): t for t in RESOURCE_TYPES}
HTTP_METHODS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS", "CONNECT", "TRACE"})

Action = Literal["continue", "abort", "fulfill"]


@dataclass
class RouteRule:
    pattern: str
    action: Action = "continue"
    body: str | None = None
    content_type: str | None = None
    status: int | None = None
    resource_type: str | None = None
    method: str | None = None
    _glob: Glob | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        # * any run of characters, ? one; the whole URL must match
        self._glob = Glob(self.pattern) if any(c in self.pattern for c in "*?") else None

    def matches(self, url: str, resource_type: str, method: str) -> bool:
        if self.resource_type and self.resource_type.lower() != resource_type.lower():
            return False
        if self.method and self.method != method.upper():
            return False
        return self._glob.fullmatch(url) if self._glob else self.pattern in url

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"pattern": self.pattern, "action": self.action}
        if self.action == "fulfill":
            out["status"] = self.status or 200
            out["contentType"] = self.content_type or "application/json"
            out["bodyBytes"] = len((self.body or "").encode())
        if self.resource_type:
            out["resourceType"] = self.resource_type
        if self.method:
            out["method"] = self.method
        return out


def make_rule(pattern: str, action: str | None, *, body: str | None = None, content_type: str | None = None,
              status: int | None = None, resource_type: str | None = None, method: str | None = None) -> RouteRule:
    """A checked rule: bad input is a 400 before anything is installed."""
    if not pattern:
        raise BadRequest("pattern is required", "missing_pattern")
    action = action or "continue"
    if action not in ("continue", "abort", "fulfill"):
        raise BadRequest(f"action must be continue, abort or fulfill, not {action!r}", "bad_action")
    if body is not None and len(body.encode()) > MAX_FULFILL_BODY:
        raise BadRequest(f"body exceeds {MAX_FULFILL_BODY} bytes", "body_too_large")
    if status is not None and not 100 <= status <= 599:
        raise BadRequest(f"status {status} is outside the HTTP range 100-599", "bad_status")
    if content_type is not None:
        base = content_type.split(";", 1)[0].strip().lower()
        if any(c in content_type for c in "\r\n\0") or base not in FULFILL_CONTENT_TYPES:
            raise BadRequest(f"contentType {content_type!r} is not allowed for a fulfilled response "
                             f"(allowed: {', '.join(sorted(FULFILL_CONTENT_TYPES))})", "bad_content_type")
    rtype = None
    if resource_type:
        rtype = _RESOURCE_BY_LOWER.get(resource_type.lower())
        if rtype is None:
            raise BadRequest(f"unknown resourceType {resource_type!r}; one of {', '.join(RESOURCE_TYPES)}",
                             "bad_resource_type")
    verb = None
    if method:
        verb = method.strip().upper()
        if verb not in HTTP_METHODS:
            raise BadRequest(f"unknown HTTP method {method!r}", "bad_method")
    return RouteRule(pattern, action, body, content_type, status, rtype, verb)  # type: ignore[arg-type]


class Interceptor:
    def __init__(self, session: Session, max_rules: int = 100) -> None:
        self.session = session
        self.max_rules = max_rules
        self.blocked_types: tuple[str, ...] = ()
        self.rules: list[RouteRule] | None = None  # None: this tab was never routed (or was cleared)
        self._patterns: tuple[list[dict[str, Any]], bool] | None = None
        self.handled = 0
        # security.allowedDomains: a fulfill rule falls through to the real answer on these hosts
        # (PinchTab's rule: a page's own trusted hosts are not forged).
        self.real_hosts: list[str] = []
        # /emulation/credentials: (user, password) answering the tab's HTTP authentication challenges.
        self.credentials: tuple[str, str] | None = None

    # -- configuration ---------------------------------------------------------------------------

    async def set_blocked_types(self, types: tuple[str, ...]) -> None:
        if types != self.blocked_types:
            self.blocked_types = types
            await self._apply()

    async def add_rule(self, rule: RouteRule) -> list[RouteRule]:
        rules = [r for r in (self.rules or []) if r.pattern != rule.pattern]
        if len(rules) >= self.max_rules:
            raise BadRequest(f"this tab already has {self.max_rules} rules (observe.maxRouteRules); remove some first",
                             "too_many_rules")
        rules.append(rule)
        self.rules = rules
        await self._apply()
        return rules

    async def remove_rules(self, pattern: str | None) -> int:
        if self.rules is None:
            raise NotFound("this tab has no network routes", "tab_not_routed")
        before = len(self.rules)
        self.rules = [r for r in self.rules if pattern and r.pattern != pattern]
        removed = before - len(self.rules)
        if not self.rules:
            self.rules = None
        await self._apply()
        return removed

    async def set_credentials(self, credentials: tuple[str, str] | None) -> None:
        self.credentials = credentials
        await self._apply()

    def on_auth_required(self, params: dict[str, Any]) -> None:
        asyncio.ensure_future(self._answer_auth(params))

    async def _answer_auth(self, params: dict[str, Any]) -> None:
        if self.credentials is None:
            answer: dict[str, Any] = {"response": "Default"}
        else:
            user, password = self.credentials
            answer = {"response": "ProvideCredentials", "username": user, "password": password}
        with contextlib.suppress(Exception):
            await self.session.send("Fetch.continueWithAuth", {"requestId": params["requestId"],
                                                               "authChallengeResponse": answer})

    def list_rules(self) -> list[dict[str, Any]]:
        return [r.to_json() for r in self.rules or ()]

    async def _apply(self) -> None:
        # Authentication challenges reach only requests the Fetch domain pauses: with credentials, all.
        auth = self.credentials is not None
        if self.rules or auth:
            patterns = [{"urlPattern": "*", "requestStage": "Request"}]
        else:
            patterns = [{"resourceType": t, "requestStage": "Request"} for t in self.blocked_types]
        if (patterns, auth) == self._patterns:
            return
        self._patterns = (patterns, auth)
        if patterns:
            await self.session.send("Fetch.enable", {"patterns": patterns, "handleAuthRequests": auth})
        else:
            await self.session.send("Fetch.disable")

    # -- paused requests ---------------------------------------------------------------------------

    def on_paused(self, params: dict[str, Any]) -> None:
        asyncio.ensure_future(self._answer(params))

    def decide(self, url: str, resource_type: str, method: str) -> RouteRule | None:
        if resource_type in self.blocked_types:
            return RouteRule("", "abort")
        for rule in self.rules or ():
            if rule.matches(url, resource_type, method):
                return rule
        return None

    async def _answer(self, params: dict[str, Any]) -> None:
        rid = params["requestId"]
        req = params.get("request") or {}
        rule = self.decide(req.get("url", ""), params.get("resourceType", ""), req.get("method", "GET"))
        with contextlib.suppress(Exception):
            if rule is not None and rule.action == "fulfill" and self.real_hosts and host_allowed(
                    urlsplit(req.get("url", "")).hostname or "", self.real_hosts):
                rule = None
            if rule is None or rule.action == "continue":
                await self.session.send("Fetch.continueRequest", {"requestId": rid})
                return
            self.handled += 1
            if rule.action == "abort":
                await self.session.send("Fetch.failRequest", {"requestId": rid, "errorReason": "BlockedByClient"})
                return
            body = (rule.body or "").encode()
            await self.session.send("Fetch.fulfillRequest", {
                "requestId": rid, "responseCode": rule.status or 200,
                "responseHeaders": [{"name": "Content-Type", "value": rule.content_type or "application/json"},
                                    {"name": "Content-Length", "value": str(len(body))}, *INERT_HEADERS],
                "body": base64.b64encode(body).decode(),
            })
