"""Commands for low-level input, dialogs and the clipboard: keyboard, keydown/keyup, mouse, drag,
scrollintoview, dialog, and the clipboard group (whose read/write come from the route table)."""

from __future__ import annotations

import re
from typing import Any

import click

from pinchtab import models
from pinchtab.commands.table import DRIVE, INSPECT, Ctx, command, group, option
from pinchtab.models.refs import is_ref

_XY = re.compile(r"^(-?\d+(?:\.\d+)?),(-?\d+(?:\.\d+)?)$")


def target(value: str | None, prefix: str = "") -> dict[str, Any]:
    """``e5`` -> ref, ``120,300`` -> x/y, anything else -> a CSS selector (``to`` fields with prefix)."""
    if not value:
        return {}
    m = _XY.match(value)
    if m:
        return {prefix + "x": float(m.group(1)), prefix + "y": float(m.group(2))}
    if is_ref(value):
        return {prefix + "ref": value}
    return {prefix + "selector": value}


def _done(v: dict[str, Any]) -> str:
    result = v.get("result") or {}
    return f"{v.get('kind', 'done')}" + (f" {result}" if result else "")


group("keyboard", DRIVE, "Type at the focused element: keyboard type TEXT, keyboard inserttext TEXT.")


@command("keyboard type", DRIVE)
@click.argument("text")
def keyboard_type(ctx: Ctx, tab_id: str | None, text: str) -> None:
    """Type TEXT at the focused element with real key events.

    \b
    Example:
      pinchtab keyboard type "hello world"
    """
    ctx.out(ctx.client.action("keyboard-type", tab_id=tab_id, text=text), _done)


@command("keyboard inserttext", DRIVE)
@click.argument("text")
def keyboard_inserttext(ctx: Ctx, tab_id: str | None, text: str) -> None:
    """Insert TEXT at the focused element like a paste (no key events).

    \b
    Example:
      pinchtab keyboard inserttext "ada@example.com"
    """
    ctx.out(ctx.client.action("keyboard-inserttext", tab_id=tab_id, text=text), _done)


def _key_command(kind: str, verb: str) -> None:
    def key_cmd(ctx: Ctx, tab_id: str | None, key: str) -> None:
        ctx.out(ctx.client.action(kind, tab_id=tab_id, key=key), _done)

    key_cmd.__doc__ = f"{verb} KEY (Shift, Control, Alt, Meta, ...).\n\n\b\nExample:\n  pinchtab {kind} Shift"
    command(kind, DRIVE)(click.argument("key")(key_cmd))


_key_command("keydown", "Hold")
_key_command("keyup", "Release")
group("mouse", DRIVE, "Low-level pointer: mouse move|down|up|wheel.")


@command("mouse move", DRIVE)
@click.argument("where")
def mouse_move(ctx: Ctx, tab_id: str | None, where: str) -> None:
    """Move the pointer to WHERE: a ref (e5), x,y or a CSS selector.

    \b
    Example:
      pinchtab mouse move e5
      pinchtab mouse move 400,320
    """
    ctx.out(ctx.client.action("mouse-move", tab_id=tab_id, **target(where)), _done)


def _button_command(kind: str) -> None:
    def button_cmd(ctx: Ctx, tab_id: str | None, where: str | None, button: str) -> None:
        ctx.out(ctx.client.action(f"mouse-{kind}", tab_id=tab_id, button=button, **target(where)), _done)

    button_cmd.__doc__ = (f"Mouse button {kind} at WHERE (ref, x,y or selector), else at the pointer.\n\n\b\n"
                          f"Example:\n  pinchtab mouse {kind} --button left")
    cmd = option(models.ActionRequest, "button", default="left", help=None)(button_cmd)
    command(f"mouse {kind}", DRIVE)(click.argument("where", required=False)(cmd))


_button_command("down")
_button_command("up")


@command("mouse wheel", DRIVE)
@click.argument("dy", type=float)
@click.option("--dx", type=float, default=0, help="Horizontal delta.")
@click.option("--at", "where", help="Where: ref, x,y or selector (default: the pointer).")
def mouse_wheel(ctx: Ctx, tab_id: str | None, dy: float, dx: float, where: str | None) -> None:
    """Turn the wheel by DY pixels (positive scrolls down).

    \b
    Example:
      pinchtab mouse wheel 240 --dx 40
    """
    ctx.out(ctx.client.action("mouse-wheel", tab_id=tab_id, delta_x=dx, delta_y=dy, **target(where)), _done)


@command("drag", DRIVE)
@click.argument("source")
@click.argument("dest", required=False)
@click.option("--drag-x", type=float, help="Horizontal offset instead of DEST.")
@click.option("--drag-y", type=float, help="Vertical offset instead of DEST.")
def drag(ctx: Ctx, tab_id: str | None, source: str, dest: str | None, drag_x: float | None,
         drag_y: float | None) -> None:
    """Drag SOURCE to DEST (each a ref, x,y or CSS selector), or by --drag-x/--drag-y.

    \b
    Example:
      pinchtab drag e5 e9
      pinchtab drag e5 400,320
    """
    ctx.out(ctx.client.action("drag", tab_id=tab_id, drag_x=drag_x, drag_y=drag_y, **target(source),
                              **target(dest, "to_")), _done)


@command("scrollintoview", DRIVE)
@click.argument("where")
def scrollintoview(ctx: Ctx, tab_id: str | None, where: str) -> None:
    """Scroll WHERE (ref or selector) into view and print its box.

    \b
    Example:
      pinchtab scrollintoview e40
    """
    ctx.out(ctx.client.action("scrollintoview", tab_id=tab_id, **target(where)), _done)


@command("dialog", DRIVE)
@click.argument("action", type=click.Choice(["accept", "dismiss"]))
@option(models.DialogRequest, "text")
def dialog(ctx: Ctx, tab_id: str | None, action: str, text: str | None) -> None:
    """Accept or dismiss the tab's open JavaScript dialog.

    \b
    Example:
      pinchtab dialog dismiss
      pinchtab dialog accept --text "Ada"
    """
    ctx.out(ctx.client.dialog(action, tab_id=tab_id, text=text),
            lambda v: f"{v['action']}: {v['type']} {v['message']!r}")


group("clipboard", INSPECT, "The browser's clipboard (needs security.allowClipboard): clipboard read, clipboard write TEXT.")
