"""The form family: type, fill, select, check, uncheck and focus, each on an element (a ref or a
selector; coordinates are refused by the declaration's target).

type focuses the element and sends key events (long text is inserted in one step); fill and select
set the value and fire input and change as a user's edit would; check and uncheck click the box
only when it is not already as asked, and read it back. fill on an ARIA slider (a widget drawn
with divs: Dash's, Quasar's, noUiSlider's handles) steps it with arrow keys, as a person at the
keyboard would, until it shows the value.
"""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, Any

from pinchtab.browser.input.dispatch import send_clicks, send_keys
from pinchtab.browser.input.keys import char_key, key_events, named_key
from pinchtab.browser.input.point import DRAW_WAIT_MS, DRAWN_JS, point
from pinchtab.browser.input.registry import action
from pinchtab.browser.input.target import Target, focus_target, on_node
from pinchtab.errors import BadRequest, BrowserError, Conflict
from pinchtab.models import ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab

# Longer typed text is inserted in one step (Input.insertText: one input event, no key events).
TYPE_KEYS_MAX = 256

FILL_JS = r"""function (value) {
  const el = this;
  if (!el.isConnected) return { stale: true };
  if (el.matches(':disabled')) return { disabled: true };
  el.focus();
  if (el.isContentEditable) {
    el.textContent = value;
    el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertText', data: value }));
    return { value: el.textContent };
  }
  const tag = el.localName;
  if (tag !== 'input' && tag !== 'textarea') return el.getAttribute('role') === 'slider' ? { slider: true } : { unfillable: tag };
  if (['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'image'].includes(el.type)) return { unfillable: 'input type=' + el.type };
  // The prototype's setter, not the instance's: frameworks like React track the instance value.
  const proto = tag === 'textarea' ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  Object.getOwnPropertyDescriptor(proto, 'value').set.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: el.type === 'password' ? '' : el.value };
}"""

SELECT_JS = r"""function (wanted) {
  const el = this;
  if (!el.isConnected) return { stale: true };
  if (el.localName !== 'select') return { notSelect: el.localName };
  if (el.disabled) return { disabled: true };
  const opts = [...el.options];
  const norm = (s) => s.replace(/\s+/g, ' ').trim();
  let opt = opts.find(o => o.value === wanted) || opts.find(o => norm(o.text) === norm(wanted)) ||
    opts.find(o => norm(o.text).toLowerCase() === norm(wanted).toLowerCase());
  if (!opt) return { missing: true, options: opts.slice(0, 30).map(o => o.value === o.text ? o.value : o.value + ' (' + norm(o.text) + ')') };
  el.focus();
  opt.selected = true;
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return { value: el.value, text: norm(opt.text) };
}"""

SLIDER_JS = r"""function () {
  const el = this;
  if (!el.isConnected) return { stale: true };
  const num = (name) => { const v = parseFloat(el.getAttribute(name)); return Number.isFinite(v) ? v : null; };
  return { now: num('aria-valuenow'), min: num('aria-valuemin'), max: num('aria-valuemax'), text: el.getAttribute('aria-valuetext') };
}"""

# The slider, or the part of it that takes the keys when the role sits on a wrapper (Quasar's
# QSlider listens on a focusable track inside its role="slider" element).
SLIDER_FOCUS_JS = r"""function () {
  const el = this;
  el.focus({ preventScroll: false });
  const root = el.getRootNode();
  if (root.activeElement !== el && !el.contains(root.activeElement)) {
    const inner = el.querySelector('[tabindex]:not([tabindex="-1"]), input, button');
    if (inner) inner.focus({ preventScroll: false });
  }
  return { focused: root.activeElement === el || el.contains(root.activeElement) };
}"""

# A slider is stepped one key at a time: at most this many steps (a 0-100 slider by 1 is 100).
SLIDER_STEPS_MAX = 500
# How long one step may take to show (a framework re-renders the value a tick or a round trip later).
SLIDER_STEP_WAIT_S = 0.5

CHECKED_JS = r"""function () {
  const el = this;
  if (!el.isConnected) return { stale: true };
  if (el.localName === 'input' && (el.type === 'checkbox' || el.type === 'radio')) return { checked: el.checked, radio: el.type === 'radio' };
  const a = el.getAttribute('aria-checked') ?? el.getAttribute('aria-pressed');
  if (a === null) return { uncheckable: el.localName };
  return { checked: a === 'true' };
}"""


@action("focus")
async def focus(tab: "Tab", spec: ActionRequest, target: Target) -> None:
    await focus_target(tab, target)


@action("type")
async def type_text(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any] | None:
    text = spec.text if spec.text is not None else spec.value
    if text is None:
        raise BadRequest("type needs text", "missing_text")
    await focus_target(tab, target)
    if len(text) > TYPE_KEYS_MAX:
        # Key by key, 10,000 characters took 34 s; one input event takes milliseconds.
        await tab.send("Input.insertText", {"text": text})
        return {"inserted": len(text)}
    events: list[dict[str, Any]] = []
    for ch in text:
        events.extend(key_events(char_key(ch)))
    await send_keys(tab, events)
    return None


@action("fill")
async def fill(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any] | None:
    value = spec.value if spec.value is not None else spec.text
    if value is None:
        raise BadRequest("fill needs a value", "missing_value")
    res = await on_node(tab, target, FILL_JS, value)
    if res.get("slider"):
        return await _slide(tab, target, value)
    if "unfillable" in res:
        if res["unfillable"] == "select":
            return await _select(tab, target, value)
        raise BadRequest(f"element {target.label} cannot be filled ({res['unfillable']})", "not_fillable")
    return None


async def _slider_now(tab: "Tab", target: Target) -> dict[str, Any]:
    res = await on_node(tab, target, SLIDER_JS)
    if res["now"] is None:
        raise BadRequest(f"slider {target.label} has no numeric aria-valuenow to fill", "not_fillable")
    return res


async def _slide(tab: "Tab", target: Target, value: str) -> dict[str, Any]:
    """ArrowRight or ArrowLeft on the focused slider until aria-valuenow is ``value``: the keys
    every ARIA slider takes, so the widget moves its own handle and tells its app."""
    try:
        want = float(value)
    except ValueError:
        raise BadRequest(f"{target.label} is a slider: fill it with a number, not {value!r}", "bad_value") from None
    res = await _slider_now(tab, target)
    lo, hi = res["min"], res["max"]
    if (lo is not None and want < lo) or (hi is not None and want > hi):
        raise BadRequest(f"{value} is outside slider {target.label}'s range {lo} to {hi}", "bad_value")
    if not (await on_node(tab, target, SLIDER_FOCUS_JS))["focused"]:
        raise BrowserError(f"slider {target.label} cannot take the focus, so no key reaches it", "fill_failed")
    now = prev = res["now"]
    went = ""
    for _ in range(SLIDER_STEPS_MAX):
        if abs(now - want) < 1e-9:
            return {"value": now}
        key = "ArrowRight" if want > now else "ArrowLeft"
        if went and key != went:
            raise BadRequest(f"slider {target.label} steps over {value}: it stops at {prev:g} and {now:g}", "bad_value")
        await send_keys(tab, key_events(named_key(key)))
        prev, went = now, key
        deadline = time.monotonic() + SLIDER_STEP_WAIT_S
        while now == prev and time.monotonic() < deadline:
            await asyncio.sleep(0.01)
            now = (await _slider_now(tab, target))["now"]
        if now == prev:
            raise BrowserError(f"slider {target.label} did not move on {key} (at {now:g}, asked for {value})", "fill_failed")
    raise BrowserError(f"slider {target.label} did not reach {value} in {SLIDER_STEPS_MAX} steps (at {now:g})", "fill_failed")


@action("select")
async def select(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    value = spec.value if spec.value is not None else spec.text
    if value is None:
        raise BadRequest("select needs a value (option value or visible text)", "missing_value")
    return await _select(tab, target, value)


async def _select(tab: "Tab", target: Target, value: str) -> dict[str, Any]:
    res = await on_node(tab, target, SELECT_JS, value)
    if "notSelect" in res:
        raise BadRequest(
            f"element {target.label} is a <{res['notSelect']}>, not a <select>; click it and then the option",
            "not_a_select",
        )
    if res.get("missing"):
        raise BadRequest(f"no option {value!r} in {target.label}; options: {', '.join(res['options'])}", "option_not_found")
    return {"value": res["value"], "text": res["text"]}


@action("check")
async def check(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    return await _set_checked(tab, target, True)


@action("uncheck")
async def uncheck(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    return await _set_checked(tab, target, False)


async def _set_checked(tab: "Tab", target: Target, want: bool) -> dict[str, Any]:
    kind = "check" if want else "uncheck"
    res = await on_node(tab, target, CHECKED_JS)
    if "uncheckable" in res:
        raise BadRequest(f"element {target.label} is not a checkbox, radio or switch", "not_checkable")
    if res["checked"] != want:
        if not want and res.get("radio"):
            raise Conflict(f"{target.label} is a radio button: it cannot be unchecked; check another option of its group",
                           "cannot_uncheck_radio")
        for _ in range(2):
            x, y = await point(tab, target, check_disabled=True)
            await send_clicks(tab, x, y, 1)
            res = await on_node(tab, target, CHECKED_JS)
            if res.get("checked") == want:
                break
            # A click the browser routed on a stale picture of the page (a frame that moved
            # or had not drawn yet) went elsewhere: once the page has drawn, one more.
            # A page that updates the box a frame later reads right after this wait.
            await on_node(tab, target, DRAWN_JS, DRAW_WAIT_MS)
            if (await on_node(tab, target, CHECKED_JS)).get("checked") == want:
                break
        else:
            raise BrowserError(f"clicking {target.label} did not {kind} it", "check_failed")
    return {"checked": want}
