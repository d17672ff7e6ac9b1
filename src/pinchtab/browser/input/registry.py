"""The action registry: one implementation per declared kind, and running a request through it.

Each kind is declared once in ``pinchtab.models.actions`` (``ACTION_SPECS``: family, target, fields)
and implemented once, in the module of its family, by a function decorated with ``@action(name)``.
``perform`` resolves the target the declaration asks for, runs the kind's function with the dialog
and navigation handling every action shares, and re-finds a stale ref once.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from pinchtab.browser.core.action_navigation import ActionNavigation
from pinchtab.browser.input.dispatch import frame_to_viewport
from pinchtab.browser.input.target import Target, resolve_target
from pinchtab.browser.page.ref_recovery import recover_ref
from pinchtab.browser.page.refs import StaleRef
from pinchtab.errors import BadRequest
from pinchtab.models import ACTION_SPECS_BY_NAME, ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

# What a kind does once its target is resolved; its answer (if any) is the action's ``result``.
ActionFunction = Callable[["Tab", ActionRequest, Target], Awaitable["dict[str, Any] | None"]]

ACTIONS: dict[str, ActionFunction] = {}


def action(name: str) -> Callable[[ActionFunction], ActionFunction]:
    """Register the decorated function as the implementation of the declared kind ``name``."""
    if name not in ACTION_SPECS_BY_NAME:
        raise LookupError(f"action kind {name!r} is not declared in pinchtab.models.actions.ACTION_SPECS")

    def register(function: ActionFunction) -> ActionFunction:
        if name in ACTIONS:
            raise LookupError(f"action kind {name!r} is implemented twice: {ACTIONS[name].__module__}."
                              f"{ACTIONS[name].__qualname__} and {function.__module__}.{function.__qualname__}")
        ACTIONS[name] = function
        return function

    return register


async def _run(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any] | None:
    if spec.mode and "mode" not in ACTION_SPECS_BY_NAME[spec.kind].fields:
        takers = ", ".join(name for name, declared in ACTION_SPECS_BY_NAME.items() if "mode" in declared.fields)
        raise BadRequest(f"mode is for {takers}, not {spec.kind}", "invalid_field")
    return await ACTIONS[spec.kind](tab, spec, target)


async def perform_once(tab: "Tab", spec: ActionRequest, *, timeout_ms: int) -> dict[str, Any]:
    if spec.frame_w and spec.frame_h and spec.x is not None and spec.y is not None:
        spec = await frame_to_viewport(tab, spec)
    target = await resolve_target(tab, spec)

    landed: tuple[str, str] | None = None  # the URL and title of the page a navigation led to

    async def run() -> dict[str, Any] | None:
        nonlocal landed
        # waitNav: wait up to its grace for a navigation, a timeout failing; without it, wait only
        # for one the input started at once, so that the answer and its snap are of the new page.
        navigation = tab.next_navigation() if spec.wait_nav else None
        watch = None if spec.wait_nav else ActionNavigation(tab)
        try:
            result = await _run(tab, spec, target)
            if navigation is not None:
                navigated = await tab.wait_for_navigation(timeout_ms=timeout_ms, started=navigation)
            else:
                assert watch is not None
                navigated = await watch.settle(timeout_ms / 1000)
        finally:
            if watch is not None:
                watch.stop()
            if navigation is not None and not navigation.done():
                navigation.cancel()
        if navigated:
            landed = await tab.location()
        return result

    # A dialog the action opens is answered by dialogAction, else by the tab's policy.
    result, dialog = await tab.dialogs.guard(run, spec.dialog_action, spec.dialog_text)
    out: dict[str, Any] = {"success": True, "kind": spec.kind}
    if spec.ref:
        out["ref"] = spec.ref
    if result:
        out["result"] = result
    if dialog:
        out["dialog"] = dialog
    if landed:
        out["url"], out["title"] = landed
    return out


async def perform(tab: "Tab", spec: ActionRequest, *, timeout_ms: int) -> dict[str, Any]:
    """Run one action; a stale ref is re-found once through the intent cache."""
    try:
        return await perform_once(tab, spec, timeout_ms=timeout_ms)
    except StaleRef as exc:
        if not spec.ref:
            raise
        recovery = await recover_ref(tab, spec.ref)
        if recovery is None:
            raise
        if not recovery.get("recovered"):
            raise StaleRef(f"{exc.message}; recovery found no safe match ({recovery.get('reason', '')})") from exc
        out = await perform_once(tab, spec.model_copy(update={"ref": recovery["new_ref"]}), timeout_ms=timeout_ms)
        out["ref"] = recovery["new_ref"]
        out["recovery"] = recovery
        return out
