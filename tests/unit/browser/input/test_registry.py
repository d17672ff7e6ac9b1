"""The action registry agrees with the kinds' declarations (pinchtab.models.ACTION_SPECS): one
implementation per declared kind, in the module of its family, and targets as declared (no browser)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from pinchtab.browser.input import FAMILIES, resolve_target
from pinchtab.browser.input.registry import ACTIONS, _run, action
from pinchtab.browser.input.target import Target
from pinchtab.errors import BadRequest
from pinchtab.models import ACTION_KINDS, ACTION_SPECS, ACTION_SPECS_BY_NAME, ActionRequest

# Without a ref, a selector or a point, resolve_target never reaches the tab.
NO_TAB: Any = None


def test_every_declared_kind_has_exactly_one_implementation() -> None:
    assert sorted(ACTIONS) == sorted(ACTION_KINDS)
    assert len(set(ACTIONS.values())) == len(ACTION_KINDS)


def test_each_kind_is_implemented_in_the_module_of_its_family() -> None:
    assert set(FAMILIES) == {spec.family for spec in ACTION_SPECS}
    for family, module in FAMILIES.items():
        assert module.__name__ == f"pinchtab.browser.input.{family}"
    for spec in ACTION_SPECS:
        assert ACTIONS[spec.name].__module__ == FAMILIES[spec.family].__name__, spec.name


def test_an_undeclared_or_second_implementation_is_refused() -> None:
    with pytest.raises(LookupError, match="not declared"):
        action("teleport")
    before = dict(ACTIONS)
    with pytest.raises(LookupError, match="implemented twice"):
        action("click")(ACTIONS["hover"])
    assert ACTIONS == before


@pytest.mark.parametrize("kind", ACTION_KINDS)
def test_a_kind_without_target_acts_on_the_page_only_when_declared_optional(kind: str) -> None:
    request = ActionRequest(kind=kind)
    if ACTION_SPECS_BY_NAME[kind].target == "optional":
        assert asyncio.run(resolve_target(NO_TAB, request)) == Target(None, "page")
    else:
        with pytest.raises(BadRequest) as err:
            asyncio.run(resolve_target(NO_TAB, request))
        assert err.value.code == "missing_target"
        assert err.value.message == f"{kind} needs a ref, a selector or x and y"


@pytest.mark.parametrize("kind", [s.name for s in ACTION_SPECS if s.target == "element"])
def test_an_element_kind_refuses_coordinates(kind: str) -> None:
    with pytest.raises(BadRequest) as err:
        asyncio.run(resolve_target(NO_TAB, ActionRequest(kind=kind, x=10, y=10)))
    assert (err.value.code, err.value.message) == ("missing_target", f"{kind} needs a ref or selector, not coordinates")


def test_mode_is_only_for_the_kinds_that_declare_it() -> None:
    assert [s.name for s in ACTION_SPECS if "mode" in s.fields] == ["click"]
    with pytest.raises(BadRequest) as err:
        asyncio.run(_run(NO_TAB, ActionRequest(kind="hover", mode="dom"), Target(None, "page")))
    assert (err.value.code, err.value.message) == ("invalid_field", "mode is for click, not hover")
