"""Request and reply models: the one definition of every parameter of the HTTP API, a leaf package
that the route table, the browser layer, the server, the client, MCP and the CLI import.

One module per concern; this package re-exports every public name, so ``models.NavigateRequest`` and
``from pinchtab.models import ActionRequest`` both work.
"""

from __future__ import annotations

from pinchtab.models.base import (  # noqa: F401
    MAX_WAIT_MS, MAX_QUERY_CHARS, MAX_SELECTOR_CHARS, MAX_TEXT_CHARS, MAX_KEY_CHARS, MAX_ACTIONS, MAX_IMAGE_SIDE,
    MAX_COORD, ApiModel, TAB_ID, MAX_OWNER_CHARS, Leased, Printable, TabScoped,
)
from pinchtab.models.gates import (  # noqa: F401
    Gate, EVALUATE, COOKIES, DOWNLOAD, UPLOAD, CLIPBOARD, NETWORK_INTERCEPT, STATE_EXPORT, SCREENCAST, RECORDING,
)
from pinchtab.models.replies import Blob, Event, EventStream, Reply  # noqa: F401
from pinchtab.models.refs import REF_PATTERN, REF_PREFIX, as_ref, is_ref, ref_number  # noqa: F401
from pinchtab.models.actions import (  # noqa: F401
    ActionFamily, ActionTarget, ActionKindSpec, ACTION_SPECS, ACTION_SPECS_BY_NAME, ACTION_KINDS, ActionKind,
    COMMON_FIELDS, SNAP, SNAP_DIFF, ActionRequest, ActionsRequest,
)
from pinchtab.models.core import (  # noqa: F401
    NavigateRequest, TabRequest, CloseRequest, SnapshotQuery, FindRequest, TextQuery, ScreenshotQuery, PdfRequest,
    EvaluateRequest, CookiesQuery, Cookie, SetCookiesRequest, WaitRequest, OUTLINE_SEP, origin_of, path_on,
)
from pinchtab.models.interaction import (  # noqa: F401
    MAX_CLIPBOARD_BYTES, DialogRequest, UploadRequest, DownloadQuery, DownloadsQuery, ClipboardQuery, ClipboardWrite,
)
from pinchtab.models.observe import (  # noqa: F401
    MAX_LOG_LIMIT, LogQuery, NetworkQuery, NetworkDetailQuery, NetworkExportQuery, NetworkRouteRequest,
    NetworkUnrouteRequest, NetworkStreamQuery, NetworkExportStreamQuery,
)
from pinchtab.models.emulation import (  # noqa: F401
    ViewportRequest, GeolocationRequest, OfflineRequest, HeadersRequest, CredentialsRequest, MediaRequest, UserAgentRequest,
    LocaleRequest, TimezoneRequest, EmulateRequest,
)
from pinchtab.models.inspect import CaptureQuery, CountQuery, ElementQuery, AttrQuery, TabRef  # noqa: F401
from pinchtab.models.tab_control import FrameRequest  # noqa: F401
from pinchtab.models.markup import HtmlQuery, StylesQuery  # noqa: F401
from pinchtab.models.state import (  # noqa: F401
    StorageQuery, StorageSet, StorageDelete, ClearCookies, StateQuery, StateName, StateSave, StateLoad, StateClean,
)
from pinchtab.models.tab_control import (  # noqa: F401
    LockRequest, UnlockRequest, HandoffRequest, HandoffStatus, ResumeRequest,
)
from pinchtab.models.orchestrator import (  # noqa: F401
    ProfileCreate, ProfileRef, InstanceStart, InstanceRef, InstanceTabOpen, InstanceLogs,
)
from pinchtab.models.attach import AttachBridge, AttachChrome  # noqa: F401
from pinchtab.models.audit import (  # noqa: F401
    AUDIT_PAGE_TIMEOUT_S, AUDIT_RUN_TIMEOUT_S, AuditCollectors, AuditPageRequest, AuditRequest,
)
from pinchtab.models.media import (  # noqa: F401
    RECORD_FORMATS, ScreencastQuery, RecordStart, RecordStop, RecordFile, AnnotateQuery,
)
from pinchtab.models.scrape import ScrapeRequest  # noqa: F401
