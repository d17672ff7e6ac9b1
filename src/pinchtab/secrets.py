"""Named secrets: values an agent types or fills by name (``"secret": "github_password"`` in an
action) without ever reading them. The values come from ``security.secrets`` in the config file and
from ``PINCHTAB_SECRET_<NAME>`` environment variables; every JSON or text answer, every error and
every log line has each value replaced by ``[secret:<name>]``, so a page, a snapshot or an error
that shows the value back does not hand it to the agent. Screenshots and PDFs are pictures: their
pixels are not redacted.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping

from pinchtab.errors import BadRequest

ENV_PREFIX = "PINCHTAB_SECRET_"
# A shorter value would be replaced wherever its letters happen to occur.
MIN_SECRET_CHARS = 4


def from_env(environ: Mapping[str, str]) -> dict[str, str]:
    """``PINCHTAB_SECRET_GITHUB_PASSWORD=...`` -> ``{"github_password": ...}``."""
    return {k[len(ENV_PREFIX):].lower(): v for k, v in environ.items() if k.startswith(ENV_PREFIX) and v}


class Secrets:
    def __init__(self, values: Mapping[str, str]) -> None:
        self.values = dict(values)
        # Longest first, so a value that contains another is replaced whole. Each value also in its
        # JSON-escaped form, as it stands inside a JSON answer.
        pairs: dict[bytes, bytes] = {}
        for name, value in self.values.items():
            mark = f"[secret:{name}]".encode()
            pairs[value.encode()] = mark
            pairs[json.dumps(value, ensure_ascii=False)[1:-1].encode()] = mark
        self._pairs = sorted(pairs.items(), key=lambda p: -len(p[0]))

    def __bool__(self) -> bool:
        return bool(self.values)

    def value(self, name: str) -> str:
        found = self.values.get(name) if name in self.values else self.values.get(name.lower())
        if found is None:
            known = ", ".join(sorted(self.values)) or "none are configured (security.secrets or PINCHTAB_SECRET_<NAME>)"
            raise BadRequest(f"unknown secret {name!r}; secrets: {known}", "unknown_secret")
        return found

    def redact(self, data: bytes) -> bytes:
        for value, mark in self._pairs:
            if value in data:
                data = data.replace(value, mark)
        return data

    def redact_text(self, text: str) -> str:
        return self.redact(text.encode()).decode(errors="replace") if self._pairs else text


def _redact_arg(secrets: Secrets, arg: object) -> object:
    if isinstance(arg, (int, float)) or arg is None:
        return arg
    text = str(arg)
    redacted = secrets.redact_text(text)
    return arg if redacted == text else redacted


_REDACTING: set[frozenset[tuple[str, str]]] = set()  # the secrets log records are redacted of already


def redact_logs(secrets: Secrets) -> None:
    """Every log record, of any logger, is made with the secrets' values replaced in its message
    and arguments (arguments stay a tuple, so formatters that unpack them, as uvicorn's access log
    does, still work)."""
    key = frozenset(secrets.values.items())
    if not secrets or key in _REDACTING:
        return
    _REDACTING.add(key)
    previous = logging.getLogRecordFactory()

    def factory(*args: object, **kwargs: object) -> logging.LogRecord:
        record = previous(*args, **kwargs)
        if isinstance(record.msg, str):
            record.msg = secrets.redact_text(record.msg)
        if isinstance(record.args, tuple):
            record.args = tuple(_redact_arg(secrets, a) for a in record.args)
        elif isinstance(record.args, Mapping):
            record.args = {k: _redact_arg(secrets, v) for k, v in record.args.items()}
        return record

    logging.setLogRecordFactory(factory)
