"""The client's route methods, one per route of ``pinchtab.api`` without a hand-written one in
``pinchtab.client``. Generated from the route table and the request models by
``python -m pinchtab.client.gen``: do not edit (a unit test fails when it is stale)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal


class RouteMethods:
    """Methods calling ``self.call(route, tab_id, **fields)``; on ``AsyncClient`` each returns an awaitable."""

    call: Callable[..., Any]  # pinchtab.client._Routes.call

    def browser_restart(self) -> Any:
        """POST /browser/restart: Start a fresh Chromium (tabs are lost)."""
        return self.call("browser_restart", None)

    def dialog(self, action: Literal["accept", "dismiss"], *, tab_id: str | None = None,
            browser: str | None = None, text: str | None = None) -> Any:
        """POST /dialog: Accept or dismiss the tab's open JavaScript dialog."""
        return self.call("dialog", tab_id, action=action, browser=browser, text=text)

    def dialog_status(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /dialog: The tab's open JavaScript dialog, if any."""
        return self.call("dialog_status", tab_id, browser=browser)

    def upload(self, *, tab_id: str | None = None, owner: str | None = None, browser: str | None = None,
            selector: str | None = None, ref: str | None = None, files: list[str] | None = None,
            paths: list[str] | None = None) -> Any:
        """POST /upload: Set the files of a file input (needs security.allowUpload)."""
        return self.call("upload", tab_id, owner=owner, browser=browser, selector=selector, ref=ref, files=files, paths=paths)

    def download(self, url: str, *, tab_id: str | None = None, owner: str | None = None,
            browser: str | None = None, raw: bool | None = None, output: Literal["file"] | None = None,
            path: str | None = None) -> Any:
        """GET /download: Fetch a URL with the browser's session (needs security.allowDownload)."""
        return self.call("download", tab_id, url=url, owner=owner, browser=browser, raw=raw, output=output, path=path)

    def downloads(self, *, id: str | None = None, raw: bool | None = None) -> Any:
        """GET /downloads: Files the pages downloaded (saved under <stateDir>/downloads); id= answers one
        file.
        """
        return self.call("downloads", None, id=id, raw=raw)

    def clipboard_read(self, *, tab_id: str | None = None) -> Any:
        """GET /clipboard/read: The browser's clipboard text (needs security.allowClipboard)."""
        return self.call("clipboard_read", tab_id)

    def clipboard_paste(self, *, tab_id: str | None = None) -> Any:
        """GET /clipboard/paste: Same as /clipboard/read."""
        return self.call("clipboard_paste", tab_id)

    def clipboard_write(self, text: str, *, tab_id: str | None = None) -> Any:
        """POST /clipboard/write: Put text on the browser's clipboard (needs security.allowClipboard)."""
        return self.call("clipboard_write", tab_id, text=text)

    def clipboard_copy(self, text: str, *, tab_id: str | None = None) -> Any:
        """POST /clipboard/copy: Same as /clipboard/write."""
        return self.call("clipboard_copy", tab_id, text=text)

    def profile(self, profile_id: str) -> Any:
        """GET /profiles/{profile_id}: One profile (by id or name)."""
        return self.call("profile", None, profile_id=profile_id)

    def profile_instance(self, profile_id: str) -> Any:
        """GET /profiles/{profile_id}/instance: The profile's instance: name, running, status (running,
        starting or stopped), port, id, url.
        """
        return self.call("profile_instance", None, profile_id=profile_id)

    def instance(self, instance_id: str) -> Any:
        """GET /instances/{instance_id}: One instance."""
        return self.call("instance", None, instance_id=instance_id)

    def restart_instance(self, instance_id: str) -> Any:
        """POST /instances/{instance_id}/restart: Restart an instance in place (same id and profile); also
        brings back one in error.
        """
        return self.call("restart_instance", None, instance_id=instance_id)

    def start_stopped_instance(self, instance_id: str) -> Any:
        """POST /instances/{instance_id}/start: Same as /restart."""
        return self.call("start_stopped_instance", None, instance_id=instance_id)

    def instance_tabs(self, instance_id: str) -> Any:
        """GET /instances/{instance_id}/tabs: The tabs of one instance."""
        return self.call("instance_tabs", None, instance_id=instance_id)

    def instance_logs(self, instance_id: str, *, lines: int | None = None) -> Any:
        """GET /instances/{instance_id}/logs: The last lines the instance's bridge logged. Defaults: lines=50."""
        return self.call("instance_logs", None, instance_id=instance_id, lines=lines)

    def attach_bridge(self, *, base_url: str | None = None, url: str | None = None,
            bridge_token: str | None = None, name: str | None = None) -> Any:
        """POST /instances/attach-bridge: Register a running bridge on another host after checking its /health
        and token (security.attach); 200 when that origin was attached already.
        """
        return self.call("attach_bridge", None, base_url=base_url, url=url, bridge_token=bridge_token, name=name)

    def attach_chrome(self, cdp_url: str, *, name: str | None = None) -> Any:
        """POST /instances/attach: An instance over an external Chrome's DevTools websocket (security.attach);
        the Chrome keeps running when the instance stops.
        """
        return self.call("attach_chrome", None, cdp_url=cdp_url, name=name)

    def detach_instance(self, instance_id: str) -> Any:
        """POST /instances/{instance_id}/detach: Forget an attached bridge (it keeps running), or stop the
        bridge of an attached Chrome.
        """
        return self.call("detach_instance", None, instance_id=instance_id)

    def console(self, *, tab_id: str | None = None, browser: str | None = None, limit: int | None = None) -> Any:
        """GET /console: Console messages of the tab (level, message, source, time)."""
        return self.call("console", tab_id, browser=browser, limit=limit)

    def clear_console(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /console/clear: Forget the tab's console messages."""
        return self.call("clear_console", tab_id, browser=browser)

    def errors(self, *, tab_id: str | None = None, browser: str | None = None, limit: int | None = None) -> Any:
        """GET /errors: Uncaught exceptions and failed loads of the tab."""
        return self.call("errors", tab_id, browser=browser, limit=limit)

    def clear_errors(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /errors/clear: Forget the tab's errors."""
        return self.call("clear_errors", tab_id, browser=browser)

    def network(self, *, tab_id: str | None = None, browser: str | None = None, filter: str | None = None,
            method: str | None = None, status: str | None = None, type: str | None = None,
            buffer_size: int | None = None, redact: bool | None = None, broken: bool | None = None,
            limit: int | None = None) -> Any:
        """GET /network: The tab's recent requests, oldest first. Defaults: redact=true."""
        return self.call("network", tab_id, browser=browser, filter=filter, method=method, status=status, type=type, buffer_size=buffer_size, redact=redact, broken=broken, limit=limit)

    def network_clear(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /network/clear: Forget logged requests: of the tabId given, or of every tab."""
        return self.call("network_clear", tab_id, browser=browser)

    def network_export(self, *, tab_id: str | None = None, owner: str | None = None,
            browser: str | None = None, filter: str | None = None, method: str | None = None,
            status: str | None = None, type: str | None = None, buffer_size: int | None = None,
            redact: bool | None = None, broken: bool | None = None, limit: int | None = None,
            format: Literal["har", "ndjson"] | None = None, body: bool | None = None,
            output: Literal["file"] | None = None, path: str | None = None) -> Any:
        """GET /network/export: The network log as HAR 1.2 (or NDJSON). Defaults: redact=true, format="har"."""
        return self.call("network_export", tab_id, owner=owner, browser=browser, filter=filter, method=method, status=status, type=type, buffer_size=buffer_size, redact=redact, broken=broken, limit=limit, format=format, body=body, output=output, path=path)

    def network_stream(self, *, tab_id: str | None = None, browser: str | None = None,
            filter: str | None = None, method: str | None = None, status: str | None = None,
            type: str | None = None, buffer_size: int | None = None, redact: bool | None = None,
            broken: bool | None = None, max_events: int | None = None, duration_ms: int | None = None) -> Any:
        """GET /network/stream: The tab's requests as server-sent events (event: network, one per change of a
        request). Defaults: redact=true.
        """
        return self.call("network_stream", tab_id, browser=browser, filter=filter, method=method, status=status, type=type, buffer_size=buffer_size, redact=redact, broken=broken, max_events=max_events, duration_ms=duration_ms)

    def network_export_stream(self, path: str, *, tab_id: str | None = None, owner: str | None = None,
            browser: str | None = None, filter: str | None = None, method: str | None = None,
            status: str | None = None, type: str | None = None, buffer_size: int | None = None,
            redact: bool | None = None, broken: bool | None = None, max_events: int | None = None,
            duration_ms: int | None = None, format: Literal["har", "ndjson"] | None = None,
            body: bool | None = None) -> Any:
        """GET /network/export/stream: Write finished requests to <stateDir>/exports/<path> as they come (HAR
        or NDJSON); server-sent events export {entries, url} and, at the end, done {entries, path}.
        Defaults: redact=true, format="har".
        """
        return self.call("network_export_stream", tab_id, path=path, owner=owner, browser=browser, filter=filter, method=method, status=status, type=type, buffer_size=buffer_size, redact=redact, broken=broken, max_events=max_events, duration_ms=duration_ms, format=format, body=body)

    def network_routes(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /network/route: The tab's network routes."""
        return self.call("network_routes", tab_id, browser=browser)

    def network_route(self, *, tab_id: str | None = None, browser: str | None = None,
            pattern: str | None = None, action: Literal["continue", "abort", "fulfill"] | None = None,
            body: str | None = None, content_type: str | None = None, status: int | None = None,
            resource_type: str | None = None, method: str | None = None) -> Any:
        """POST /network/route: Add or replace (same pattern) a rule that aborts, fulfils or continues
        matching requests. Defaults: action="continue".
        """
        return self.call("network_route", tab_id, browser=browser, pattern=pattern, action=action, body=body, content_type=content_type, status=status, resource_type=resource_type, method=method)

    def network_unroute(self, *, tab_id: str | None = None, browser: str | None = None,
            pattern: str | None = None) -> Any:
        """DELETE /network/route: Remove one rule (pattern) or all; 404 when the tab has none."""
        return self.call("network_unroute", tab_id, browser=browser, pattern=pattern)

    def network_detail(self, request_id: str, *, tab_id: str | None = None, browser: str | None = None,
            body: bool | None = None,
            body_mode: Literal["auto", "retained-preferred", "retained-only", "live-only"] | None = None,
            timeout_ms: int | None = None, redact: bool | None = None) -> Any:
        """GET /network/{request_id}: One logged request; body=true adds its response body (bodyMode: retained
        or Chromium's). Defaults: body_mode="auto", timeout_ms=2000, redact=true.
        """
        return self.call("network_detail", tab_id, request_id=request_id, browser=browser, body=body, body_mode=body_mode, timeout_ms=timeout_ms, redact=redact)

    def emulate(self, *, tab_id: str | None = None, browser: str | None = None, width: int | None = None,
            height: int | None = None, device_scale_factor: float | None = None, mobile: bool | None = None,
            user_agent: str | None = None, locale: str | None = None, timezone_id: str | None = None,
            color_scheme: str | None = None, latitude: float | None = None, longitude: float | None = None,
            offline: bool | None = None) -> Any:
        """POST /emulation: Several emulations at once: viewport, user agent, locale, timezone, colour scheme,
        position, offline.
        """
        return self.call("emulate", tab_id, browser=browser, width=width, height=height, device_scale_factor=device_scale_factor, mobile=mobile, user_agent=user_agent, locale=locale, timezone_id=timezone_id, color_scheme=color_scheme, latitude=latitude, longitude=longitude, offline=offline)

    def emulate_viewport(self, width: int, height: int, *, tab_id: str | None = None,
            browser: str | None = None, device_scale_factor: float | None = None, mobile: bool | None = None,
            touch: bool | None = None) -> Any:
        """POST /emulation/viewport: Emulate a viewport: size, device scale factor, mobile, touch. Defaults:
        device_scale_factor=1.0.
        """
        return self.call("emulate_viewport", tab_id, width=width, height=height, browser=browser, device_scale_factor=device_scale_factor, mobile=mobile, touch=touch)

    def emulate_geolocation(self, latitude: float, longitude: float, *, tab_id: str | None = None,
            browser: str | None = None, accuracy: float | None = None) -> Any:
        """POST /emulation/geolocation: Emulate the position navigator.geolocation reports (and allow it).
        Defaults: accuracy=1.0.
        """
        return self.call("emulate_geolocation", tab_id, latitude=latitude, longitude=longitude, browser=browser, accuracy=accuracy)

    def emulate_offline(self, offline: bool, *, tab_id: str | None = None, browser: str | None = None,
            latency: float | None = None, download_throughput: float | None = None,
            upload_throughput: float | None = None) -> Any:
        """POST /emulation/offline: Take the tab offline or online; optional latency and throughput
        throttling. Defaults: download_throughput=-1, upload_throughput=-1.
        """
        return self.call("emulate_offline", tab_id, offline=offline, browser=browser, latency=latency, download_throughput=download_throughput, upload_throughput=upload_throughput)

    def emulate_headers(self, headers: dict[str, str], *, tab_id: str | None = None,
            browser: str | None = None) -> Any:
        """POST /emulation/headers: Extra HTTP headers on every request of the tab."""
        return self.call("emulate_headers", tab_id, headers=headers, browser=browser)

    def emulate_credentials(self, username: str, *, tab_id: str | None = None, browser: str | None = None,
            password: str | None = None) -> Any:
        """POST /emulation/credentials: Answer the tab's HTTP authentication challenges with this user name
        and password (empty clears). Defaults: password="".
        """
        return self.call("emulate_credentials", tab_id, username=username, browser=browser, password=password)

    def emulate_media(self, feature: str, value: str, *, tab_id: str | None = None,
            browser: str | None = None) -> Any:
        """POST /emulation/media: Emulate a CSS media feature (prefers-color-scheme: dark, ...)."""
        return self.call("emulate_media", tab_id, feature=feature, value=value, browser=browser)

    def emulate_user_agent(self, user_agent: str, *, tab_id: str | None = None, browser: str | None = None,
            accept_language: str | None = None, platform: str | None = None) -> Any:
        """POST /emulation/useragent: Override the user agent (and Accept-Language, platform)."""
        return self.call("emulate_user_agent", tab_id, user_agent=user_agent, browser=browser, accept_language=accept_language, platform=platform)

    def emulate_locale(self, locale: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /emulation/locale: Override the locale Intl and dates use."""
        return self.call("emulate_locale", tab_id, locale=locale, browser=browser)

    def emulate_timezone(self, timezone_id: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /emulation/timezone: Override the timezone."""
        return self.call("emulate_timezone", tab_id, timezone_id=timezone_id, browser=browser)

    def capture(self, *, tab_id: str | None = None, browser: str | None = None, selector: str | None = None,
            filter: Literal["interactive", "all"] | None = None, depth: int | None = None,
            format: Literal["jpeg", "png"] | None = None, quality: int | None = None,
            output: Literal["file", "inline", "raw"] | None = None, require_pair: bool | None = None,
            no_animations: bool | None = None, scale: float | None = None,
            wait: Literal["stable", "load", "none"] | None = None, with_bounds: bool | None = None,
            beyond_viewport: bool | None = None) -> Any:
        """GET /capture: Screenshot and accessibility snapshot from the same moment, with node bounding boxes.
        Defaults: filter="interactive", format="jpeg", output="file", scale=1.0, wait="stable",
        with_bounds=true.
        """
        return self.call("capture", tab_id, browser=browser, selector=selector, filter=filter, depth=depth, format=format, quality=quality, output=output, require_pair=require_pair, no_animations=no_animations, scale=scale, wait=wait, with_bounds=with_bounds, beyond_viewport=beyond_viewport)

    def count(self, selector: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /count: How many elements a selector matches (a ref: 0 or 1)."""
        return self.call("count", tab_id, selector=selector, browser=browser)

    def value(self, ref: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /value: The value of an input (or the text of another element)."""
        return self.call("value", tab_id, ref=ref, browser=browser)

    def attr(self, ref: str, name: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /attr: An attribute of an element (null when absent)."""
        return self.call("attr", tab_id, ref=ref, name=name, browser=browser)

    def box(self, ref: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /box: The element's box in viewport CSS pixels."""
        return self.call("box", tab_id, ref=ref, browser=browser)

    def visible(self, ref: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /visible: Is the element visible?."""
        return self.call("visible", tab_id, ref=ref, browser=browser)

    def enabled(self, ref: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /enabled: Is the element enabled?."""
        return self.call("enabled", tab_id, ref=ref, browser=browser)

    def checked(self, ref: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /checked: Is the checkbox or radio checked?."""
        return self.call("checked", tab_id, ref=ref, browser=browser)

    def timing(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /timing: Navigation timing and Core Web Vitals: ttfbMs, fcpMs, lcpMs, cls, domContentLoadedMs,
        loadMs, resources.
        """
        return self.call("timing", tab_id, browser=browser)

    def tab_metrics(self, tab_id: str) -> Any:
        """GET /tabs/{tab_id}/metrics: Chromium's counters for the tab: JS heap, DOM nodes, listeners,
        documents, frames.
        """
        return self.call("tab_metrics", None, tab_id=tab_id)

    def tab_state(self, tab_id: str) -> Any:
        """GET /tabs/{tab_id}/state: Readiness probe: load state, open dialog, network idle, actionability
        (ready, caution, blocked).
        """
        return self.call("tab_state", None, tab_id=tab_id)

    def storage(self, *, tab_id: str | None = None, browser: str | None = None,
            type: Literal["local", "session", ""] | None = None, key: str | None = None) -> Any:
        """GET /storage: localStorage and sessionStorage of the tab's origin."""
        return self.call("storage", tab_id, browser=browser, type=type, key=key)

    def set_storage(self, key: str, value: str, type: Literal["local", "session"], *,
            tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /storage: Set a storage item of the tab's origin."""
        return self.call("set_storage", tab_id, key=key, value=value, type=type, browser=browser)

    def delete_storage(self, type: Literal["local", "session", "all"], *, tab_id: str | None = None,
            browser: str | None = None, key: str | None = None) -> Any:
        """DELETE /storage: Remove a storage item, or clear the storage."""
        return self.call("delete_storage", tab_id, type=type, browser=browser, key=key)

    def clear_cookies(self, *, tab_id: str | None = None, browser: str | None = None, url: str | None = None,
            name: str | None = None) -> Any:
        """DELETE /cookies: Delete cookies: all of the browser, or those of url / name (needs
        security.allowCookies).
        """
        return self.call("clear_cookies", tab_id, browser=browser, url=url, name=name)

    def current_state(self, *, tab_id: str | None = None) -> Any:
        """GET /state: The browser state a save would write: cookies, the origin's storage, the tab."""
        return self.call("current_state", tab_id)

    def list_states(self) -> Any:
        """GET /state/list: Saved states, newest first."""
        return self.call("list_states", None)

    def show_state(self, name: str) -> Any:
        """GET /state/show: One saved state, whole."""
        return self.call("show_state", None, name=name)

    def save_state(self, *, tab_id: str | None = None, name: str | None = None,
            metadata: dict[str, Any] | None = None, encrypt: bool | None = None) -> Any:
        """POST /state/save: Save cookies and the current origin's storage under a name."""
        return self.call("save_state", tab_id, name=name, metadata=metadata, encrypt=encrypt)

    def load_state(self, name: str, *, tab_id: str | None = None) -> Any:
        """POST /state/load: Restore a saved state into a tab."""
        return self.call("load_state", tab_id, name=name)

    def delete_state(self, name: str) -> Any:
        """DELETE /state: Delete a saved state."""
        return self.call("delete_state", None, name=name)

    def clean_states(self, *, older_than_hours: float | None = None) -> Any:
        """POST /state/clean: Delete saved states older than N hours. Defaults: older_than_hours=24."""
        return self.call("clean_states", None, older_than_hours=older_than_hours)

    def lock_tab(self, owner: str, *, tab_id: str | None = None, browser: str | None = None,
            timeout_sec: float | None = None, ttl: float | None = None) -> Any:
        """POST /lock: Lock a tab for an owner (409 while another owner holds it)."""
        return self.call("lock_tab", tab_id, owner=owner, browser=browser, timeout_sec=timeout_sec, ttl=ttl)

    def unlock_tab(self, owner: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /unlock: Release an owner's lock."""
        return self.call("unlock_tab", tab_id, owner=owner, browser=browser)

    def handoff(self, tab_id: str, *, owner: str | None = None, reason: str | None = None,
            timeout_ms: int | None = None) -> Any:
        """POST /tabs/{tab_id}/handoff: Pause actions on the tab for a human (409 tab_paused_handoff until
        resumed). Defaults: reason="manual_intervention".
        """
        return self.call("handoff", None, tab_id=tab_id, owner=owner, reason=reason, timeout_ms=timeout_ms)

    def handoff_status(self, tab_id: str) -> Any:
        """GET /tabs/{tab_id}/handoff: Handoff state of the tab: paused_handoff or active."""
        return self.call("handoff_status", None, tab_id=tab_id)

    def resume(self, tab_id: str, *, owner: str | None = None, status: str | None = None,
            resolved_data: dict[str, Any] | None = None) -> Any:
        """POST /tabs/{tab_id}/resume: End a handoff: actions run again."""
        return self.call("resume", None, tab_id=tab_id, owner=owner, status=status, resolved_data=resolved_data)

    def frame(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /frame: The tab's frame scope (main or a frame)."""
        return self.call("frame", tab_id, browser=browser)

    def set_frame(self, target: str, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """POST /frame: Scope selector-based actions, /snapshot and /text to a frame (target main resets it)."""
        return self.call("set_frame", tab_id, target=target, browser=browser)

    def html(self, *, tab_id: str | None = None, browser: str | None = None, selector: str | None = None,
            ref: str | None = None, max_chars: int | None = None) -> Any:
        """GET /html: Outer HTML of the page or of one element."""
        return self.call("html", tab_id, browser=browser, selector=selector, ref=ref, max_chars=max_chars)

    def styles(self, *, tab_id: str | None = None, browser: str | None = None, selector: str | None = None,
            ref: str | None = None, prop: str | None = None) -> Any:
        """GET /styles: Computed styles of an element (or the document's root)."""
        return self.call("styles", tab_id, browser=browser, selector=selector, ref=ref, prop=prop)

    def a11y_audit(self, *, tab_id: str | None = None, browser: str | None = None) -> Any:
        """GET /a11y/audit: Accessibility score and findings of the page (axe-core rules, PinchTab's rule
        names).
        """
        return self.call("a11y_audit", tab_id, browser=browser)

    def screencast_tabs(self) -> Any:
        """GET /screencast/tabs: The tabs a screencast can show: id, url, title."""
        return self.call("screencast_tabs", None)

    def record_start(self, *, tab_id: str | None = None, browser: str | None = None,
            format: Literal["gif", "webm", "mp4"] | None = None, fps: int | None = None,
            quality: int | None = None, scale: float | None = None) -> Any:
        """POST /record/start: Start recording a tab (one recording per bridge). Defaults: format="gif",
        fps=5, quality=80, scale=1.0.
        """
        return self.call("record_start", tab_id, browser=browser, format=format, fps=fps, quality=quality, scale=scale)

    def record_stop(self, *, discard: bool | None = None) -> Any:
        """POST /record/stop: Stop the recording: it encodes in the background (discard: drop it)."""
        return self.call("record_stop", None, discard=discard)

    def record_status(self) -> Any:
        """GET /record/status: The recording's state: idle, recording, encoding, finished (with its
        outputPath), ....
        """
        return self.call("record_status", None)

    def annotate(self, *, tab_id: str | None = None, browser: str | None = None, selector: str | None = None,
            clear: bool | None = None) -> Any:
        """GET /annotate: Draw numbered, clickable ref boxes over the tab's interactive elements (clear=true
        removes them).
        """
        return self.call("annotate", tab_id, browser=browser, selector=selector, clear=clear)

    def record_file(self, *, raw: bool | None = None) -> Any:
        """GET /record/file: The finished recording's file."""
        return self.call("record_file", None, raw=raw)

    def scrape(self, url: str, *, preview: bool | None = None, only: list[str] | None = None,
            max_pages: int | None = None, max_per_pattern: int | None = None,
            include_patterns: list[str] | None = None, exclude_patterns: list[str] | None = None,
            concurrency: int | None = None, enrich_all: bool | None = None, no_browser: bool | None = None,
            timeout_seconds: float | None = None, browser: str | None = None) -> Any:
        """POST /scrape: Scrape a site to a report of markdown pages (schemaVersion 1.0): pages, pageGroups,
        summary; each page's source is http or browser. Defaults: max_pages=50, max_per_pattern=8,
        concurrency=2, timeout_seconds=60.
        """
        return self.call("scrape", None, url=url, preview=preview, only=only, max_pages=max_pages, max_per_pattern=max_per_pattern, include_patterns=include_patterns, exclude_patterns=exclude_patterns, concurrency=concurrency, enrich_all=enrich_all, no_browser=no_browser, timeout_seconds=timeout_seconds, browser=browser)

    def activity_log(self, *, tab_id: str | None = None, limit: int | None = None,
            age_sec: int | None = None, since: str | None = None, until: str | None = None,
            agent_id: str | None = None, instance_id: str | None = None, action: str | None = None,
            path_prefix: str | None = None, source: str | None = None, request_id: str | None = None,
            session_id: str | None = None) -> Any:
        """GET /api/activity: Recent requests, oldest first: method, path, status, durationMs, agentId, tabId,
        action, target (a bounded log: observability.activity.maxEvents). Defaults: limit=200.
        """
        return self.call("activity_log", tab_id, limit=limit, age_sec=age_sec, since=since, until=until, agent_id=agent_id, instance_id=instance_id, action=action, path_prefix=path_prefix, source=source, request_id=request_id, session_id=session_id)

    def agents(self) -> Any:
        """GET /api/agents: The agents seen (X-Agent-Id), most recently active first."""
        return self.call("agents", None)

    def agent(self, agent_id: str, *, mode: Literal["tool_calls", "progress", "both"] | None = None) -> Any:
        """GET /api/agents/{agent_id}: One agent and its recent events. Defaults: mode="both"."""
        return self.call("agent", None, agent_id=agent_id, mode=mode)

    def agent_events(self, agent_id: str, *, mode: Literal["tool_calls", "progress", "both"] | None = None) -> Any:
        """GET /api/agents/{agent_id}/events: One agent's events as server-sent events: its recent ones, then
        each as it happens. Defaults: mode="tool_calls".
        """
        return self.call("agent_events", None, agent_id=agent_id, mode=mode)

    def report_agent_event(self, agent_id: str, message: str, *, channel: Literal["progress"] | None = None,
            progress: int | None = None, total: int | None = None, details: dict[str, Any] | None = None) -> Any:
        """POST /api/agents/{agent_id}/events: An agent reports progress (a message) into its feed."""
        return self.call("report_agent_event", None, agent_id=agent_id, message=message, channel=channel, progress=progress, total=total, details=details)

    def events(self, *, mode: Literal["tool_calls", "progress", "both"] | None = None,
            agent_id: str | None = None) -> Any:
        """GET /api/events: The dashboard's server-sent events: init (agents), action and progress (agent
        events), monitoring (instances and tabs, on change), system (instance lifecycle). Defaults:
        mode="tool_calls".
        """
        return self.call("events", None, mode=mode, agent_id=agent_id)

    def effective_config(self) -> Any:
        """GET /api/config: The server's configuration: {config, configPath, tokenConfigured, restartRequired,
        restartReasons} (write-only keys never shown: tokenSet says whether a token is set).
        """
        return self.call("effective_config", None)

    def update_config(self, *, server: dict[str, Any] | None = None, security: dict[str, Any] | None = None,
            browser: dict[str, Any] | None = None, find: dict[str, Any] | None = None,
            discovery: dict[str, Any] | None = None, observe: dict[str, Any] | None = None,
            recording: dict[str, Any] | None = None, instances: dict[str, Any] | None = None,
            mcp: dict[str, Any] | None = None, instance_defaults: dict[str, Any] | None = None,
            observability: dict[str, Any] | None = None, sessions: dict[str, Any] | None = None) -> Any:
        """PUT /api/config: Change the config (its file's shape, partial): checked, written to the server's
        config file, answered as GET; restartRequired names the keys that wait for a restart.
        """
        return self.call("update_config", None, server=server, security=security, browser=browser, find=find, discovery=discovery, observe=observe, recording=recording, instances=instances, mcp=mcp, instance_defaults=instance_defaults, observability=observability, sessions=sessions)

    def login(self, token: str) -> Any:
        """POST /api/auth/login: Check the server token and set the dashboard's HttpOnly session cookie."""
        return self.call("login", None, token=token)

    def logout(self) -> Any:
        """POST /api/auth/logout: Clear the dashboard's session cookie."""
        return self.call("logout", None)

    def create_session(self, agent_id: str, *, label: str | None = None) -> Any:
        """POST /sessions: A session for an agent: its sessionToken is answered this once (only its hash is
        kept).
        """
        return self.call("create_session", None, agent_id=agent_id, label=label)

    def agent_sessions(self) -> Any:
        """GET /sessions: Every agent session with its status."""
        return self.call("agent_sessions", None)

    def my_session(self) -> Any:
        """GET /sessions/me: The session the caller authenticated with."""
        return self.call("my_session", None)

    def agent_session(self, session_id: str) -> Any:
        """GET /sessions/{session_id}: One agent session."""
        return self.call("agent_session", None, session_id=session_id)

    def revoke_session(self, session_id: str) -> Any:
        """POST /sessions/{session_id}/revoke: Revoke a session (the server token, or the session itself)."""
        return self.call("revoke_session", None, session_id=session_id)
