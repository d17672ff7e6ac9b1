"""Actions on a tab by ref, CSS selector or coordinates, with real input events.

Every action kind is declared once in ``pinchtab.models.actions`` and implemented once here, by a
function registered with ``@action(name)`` (registry.py) in the module of its family: pointer,
form, keyboard, scroll, lowlevel. The shared pieces: target.py (what an action acts on),
point.py (where pointer input lands, the occlusion check, frames of another origin), dispatch.py
(CDP input events, the per-tab pointer and held keys, the reset after a timeout), keys.py.
Importing the package imports every family module, which registers its kinds.
"""

from types import ModuleType

from pinchtab.browser.input import form, keyboard, lowlevel, pointer, scroll
from pinchtab.browser.input.registry import perform
from pinchtab.browser.input.target import resolve_target

# The module that implements each family's kinds (ActionKindSpec.family).
FAMILIES: dict[str, ModuleType] = {"pointer": pointer, "form": form, "keyboard": keyboard, "scroll": scroll,
                                   "lowlevel": lowlevel}

__all__ = ["FAMILIES", "perform", "resolve_target"]
