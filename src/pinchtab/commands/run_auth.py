"""--profile, --cookie and --cookies-file of ``pinchtab audit``, ``compare`` and ``scrape``, as in
PinchTab: a run goes to the running instance of a profile, or, with cookies, to a temporary
instance of its own (a persistent profile never keeps them), stopped when the run ends. Both reach
their instance through the server (``/instances/{id}/<route>``), as a remote CLI cannot reach a
bridge's loopback address."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote, urlsplit

import click

from pinchtab.commands.table import Ctx

if TYPE_CHECKING:
    from pinchtab.client import Client


def run_auth_options(fn: Callable[..., Any]) -> Callable[..., Any]:
    for opt in (
        click.option("--profile", help="Run on the running instance of this browser profile."),
        click.option("--cookies-file", type=click.Path(dir_okay=False, exists=True, path_type=Path),
                     help="Cookies to set before the run: a JSON array of {name, value, domain, ...} objects."),
        click.option("--cookie", "cookie_flags", multiple=True, metavar="NAME=VALUE",
                     help="A cookie to set before the run (repeatable); the run gets a temporary instance."),
    ):
        fn = opt(fn)
    return fn


def cookies_of(flags: tuple[str, ...], file: Path | None) -> list[dict[str, Any]]:
    """The cookies of the --cookie flags, then of the file; each needs a name and a value."""
    cookies = []
    for flag in flags:
        name, _, value = flag.partition("=")
        if not name.strip() or not value:
            raise click.BadParameter(f"{flag!r}: expected name=value", param_hint="--cookie")
        cookies.append({"name": name.strip(), "value": value})
    if file is not None:
        try:
            listed = json.loads(file.read_text())
        except ValueError as exc:
            raise click.BadParameter(f"{file}: {exc} (expected a JSON array of {{name, value, ...}} objects)",
                                     param_hint="--cookies-file") from None
        if not isinstance(listed, list) or not all(isinstance(c, dict) for c in listed):
            raise click.BadParameter(f"{file}: expected a JSON array of {{name, value, ...}} objects",
                                     param_hint="--cookies-file")
        for i, cookie in enumerate(listed):
            if not str(cookie.get("name", "")).strip() or not cookie.get("value"):
                raise click.BadParameter(f"{file}: entry {i} needs a name and a value", param_hint="--cookies-file")
        cookies += listed
    return cookies


def _scopes(urls: list[str]) -> list[str]:
    """The origins (``https://host/``) of the run's URLs, once each: where the cookies are set."""
    parts = [urlsplit(u.strip()) for u in urls]
    return list(dict.fromkeys(f"{p.scheme}://{p.netloc}/" for p in parts if p.scheme and p.netloc))


def _on_instance(ctx: Ctx, instance_id: str) -> Client:
    # Imported here as in Ctx: `pinchtab --help` lists this command without loading httpx.
    from pinchtab.client import Client

    return Client(f"{ctx.url}/instances/{quote(instance_id, safe='')}", ctx.token)


def _profile_instance(ctx: Ctx, profile: str) -> str:
    for inst in ctx.client.instances():
        if inst.get("profileName") == profile and inst.get("status") == "running":
            return str(inst["id"])
    raise click.UsageError(f"no running instance for profile {profile!r} (start one: pinchtab instances start {profile})")


@contextlib.contextmanager
def run_client(ctx: Ctx, profile: str | None, cookie_flags: tuple[str, ...], cookies_file: Path | None,
               urls: list[str]) -> Iterator[Client]:
    """The client a run uses: the command's own, one on the profile's instance, or one on a
    temporary instance holding the cookies (stopped afterwards)."""
    cookies = cookies_of(cookie_flags, cookies_file)
    if not cookies:
        if profile is None:
            yield ctx.client
            return
        with _on_instance(ctx, _profile_instance(ctx, profile)) as client:
            yield client
        return
    if profile is not None:
        raise click.UsageError("--profile cannot be combined with --cookie or --cookies-file: a run with cookies "
                               "uses a temporary instance of its own")
    scopes = _scopes(urls)
    if not scopes:
        raise click.UsageError("--cookie and --cookies-file need an http(s) URL to set the cookies for")
    instance_id = str(ctx.client.start_instance()["id"])
    try:
        with _on_instance(ctx, instance_id) as client:
            # A tab of its own for the cookie calls (the jar is the browser's): the new tab is the
            # current one, so the calls need no /tabs/{id} path, which has no instance form.
            tab = str(client.new_tab()["tabId"])
            try:
                for scope in scopes:
                    set_count = client.set_cookies(cookies, url=scope)
                    if set_count != len(cookies):
                        raise click.ClickException(f"set {set_count} of {len(cookies)} cookies for {scope}")
            finally:
                client.call("tab", action="close", tab_id=tab)
            yield client
    finally:
        ctx.client.stop_instance(instance_id)
