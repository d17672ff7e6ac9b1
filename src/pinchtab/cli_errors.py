"""How the ``pinchtab`` command ends on an error: one message (text, or JSON with ``--json``)
and an exit code by kind. The group's ``main`` (pinchtab.cli) sends every error here, so a
command only raises.

Exit codes:
  0  ok
  1  an error: the server answered one (HTTP 4xx/5xx), or a local one (bad config, ...)
  2  usage: an unknown command or option, a missing or bad argument
  3  no answer: no server at the URL (or it did not answer in time), or one could not be started
  130 interrupted (Ctrl-C)

Text goes to stderr: ``error: <message> (HTTP 404, not_found)``. With ``--json`` the error is
one JSON object on stdout, where the answer would have been:
``{"error": "<message>", "code": "not_found", "status": 404}`` (``status`` is the HTTP
status, 0 when no answer came, null for a usage or local error; a failed batch adds the
server's other fields, e.g. ``results``).
"""

from __future__ import annotations

import json
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

import click

from pinchtab.errors import PinchtabError

OK, ERROR, USAGE, UNREACHABLE, INTERRUPTED = 0, 1, 2, 3, 130

# pinchtab.autostart's codes for a local server it could not start: no server answers either.
START_FAILED_CODES = {"server_start_failed", "server_start_timeout"}


def wants_json(args: Sequence[str]) -> bool:
    """``--json`` among the options (before a ``--``): the error is printed as JSON too."""
    for arg in args:
        if arg == "--":
            return False
        if arg == "--json":
            return True
    return False


def describe(exc: BaseException) -> tuple[dict[str, Any], int]:
    """The JSON body and the exit code of an error the command raised."""
    if isinstance(exc, click.UsageError):
        return {"error": exc.format_message(), "code": "usage", "status": None}, USAGE
    if isinstance(exc, click.Abort | KeyboardInterrupt):
        return {"error": "interrupted", "code": "interrupted", "status": None}, INTERRUPTED
    if isinstance(exc, click.ClickException) and isinstance(exc.__cause__, PinchtabError):
        return describe(exc.__cause__)  # a command's own wording of a config or bind error: keep its code
    if isinstance(exc, click.ClickException):
        return {"error": exc.format_message(), "code": "error", "status": None}, ERROR
    if isinstance(exc, PinchtabError):
        from pinchtab.client import PinchtabClientError

        if isinstance(exc, PinchtabClientError):  # the server's answer, or none (status 0)
            body: dict[str, Any] = {"error": exc.message, "code": exc.code, "status": exc.status}
            if isinstance(exc.body, dict):
                body.update({k: v for k, v in exc.body.items() if k not in body})
            return body, UNREACHABLE if exc.status == 0 else ERROR
        if exc.code in START_FAILED_CODES:
            return {"error": exc.message, "code": exc.code, "status": 0}, UNREACHABLE
        return {"error": exc.message, "code": exc.code, "status": None}, ERROR
    raise exc


def text(body: dict[str, Any]) -> str:
    status = body.get("status")
    if body["code"] in ("usage", "error"):
        return f"error: {body['error']}"
    where = f"HTTP {status}, " if status else ("no answer, " if status == 0 else "")
    return f"error: {body['error']} ({where}{body['code']})"


def fail(exc: BaseException, args: Sequence[str], ctx: click.Context | None = None) -> NoReturn:
    """Print ``exc`` the way the command line asked for and exit with its code."""
    body, code = describe(exc)
    if wants_json(args):
        click.echo(json.dumps(body, ensure_ascii=False))
    elif isinstance(exc, click.UsageError) and exc.ctx is not None:
        exc.show()  # click's usage line and hint ("Try 'pinchtab nav -h' for help.")
    else:
        click.echo(text(body), err=True)
    sys.exit(code)
