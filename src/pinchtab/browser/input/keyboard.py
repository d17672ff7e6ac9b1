"""The keyboard family: press, keydown, keyup, keyboard-type and keyboard-inserttext.

Each acts at the focus, or focuses a given target first. Held keys (keydown Shift) stay held for
the actions that follow until their keyup; keyboard-type types with them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from pinchtab.browser.input.dispatch import send_keys, state
from pinchtab.browser.input.keys import MODIFIER_BITS, char_key, key_events, parse_combo
from pinchtab.browser.input.registry import action
from pinchtab.browser.input.target import Target, focus_target
from pinchtab.errors import BadRequest
from pinchtab.models import ActionRequest

if TYPE_CHECKING:
    from pinchtab.browser.core.tab import Tab


@action("press")
async def press(tab: "Tab", spec: ActionRequest, target: Target) -> None:
    key, modifiers = parse_combo(spec.key or spec.text or "")
    if target.backend_id is not None:
        await focus_target(tab, target)
    await send_keys(tab, key_events(key, modifiers | spec.modifiers))


@action("keydown")
async def keydown(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    return await _hold(tab, spec, target, down=True)


@action("keyup")
async def keyup(tab: "Tab", spec: ActionRequest, target: Target) -> dict[str, Any]:
    return await _hold(tab, spec, target, down=False)


async def _hold(tab: "Tab", spec: ActionRequest, target: Target, *, down: bool) -> dict[str, Any]:
    st = state(tab)
    key, mods = parse_combo(spec.key or spec.text or "")
    if target.backend_id is not None:
        await focus_target(tab, target)
    down_event, up_event = key_events(key, mods | st.modifiers)
    bit = MODIFIER_BITS.get(key.key, 0)
    if down:
        st.modifiers |= bit
        await send_keys(tab, [{**down_event, "modifiers": st.modifiers}])
    else:
        st.modifiers &= ~bit
        await send_keys(tab, [{**up_event, "modifiers": st.modifiers}])
    return {"key": key.key, "held": [name for name, b in MODIFIER_BITS.items() if st.modifiers & b]}


@action("keyboard-type")
async def keyboard_type(tab: "Tab", spec: ActionRequest, target: Target) -> None:
    text = await _text_at_focus(tab, spec, target)
    st = state(tab)
    shift = st.modifiers & MODIFIER_BITS["Shift"]
    events: list[dict[str, Any]] = []
    for ch in text.upper() if shift else text:
        events.extend({**e, "modifiers": st.modifiers} for e in key_events(char_key(ch)))
    await send_keys(tab, events)


@action("keyboard-inserttext")
async def keyboard_inserttext(tab: "Tab", spec: ActionRequest, target: Target) -> None:
    text = await _text_at_focus(tab, spec, target)
    await tab.send("Input.insertText", {"text": text})


async def _text_at_focus(tab: "Tab", spec: ActionRequest, target: Target) -> str:
    """The text to type, after focusing the target when one is given."""
    text = spec.text if spec.text is not None else spec.value
    if not text:
        raise BadRequest(f"{spec.kind} needs text", "missing_text")
    if target.backend_id is not None:
        await focus_target(tab, target)
    return text
