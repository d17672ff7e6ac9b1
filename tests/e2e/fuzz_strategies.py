"""Strategies schemathesis builds anew for every generated case, built once per fuzz run
(tests/e2e/test_fuzz.py and test_fuzz_server.py).

Drawing a case calls ``st.sampled_from``, ``st.fixed_dictionaries``, ``st.shared(FeatureStrategy())``
and its mutations' ``ordered`` with the same arguments over and over (the keys an object picked, the
keywords a mutation may negate, ...), and hypothesis builds, validates and labels each new strategy
before drawing from it: ~25 new strategies per case, ~30% of the drawing's CPU. Each of these is a pure
function of its arguments (a strategy is an immutable description of how to draw), so a memo that
answers the same arguments with the strategy it built for them draws exactly the same values: the
cases of a seeded run are unchanged (checked by comparing every generated case of the bridge's and the
server's run with and without it). Arguments are keyed by value where they are plain data and by
identity otherwise; the memo holds them, so an identity is never reused while it lives. Installed in
schemathesis' modules for the length of a fuzz run only, and taken out after it.
"""

from __future__ import annotations

import contextlib
import types
from collections.abc import Callable, Hashable, Iterable, Iterator
from typing import Any

SCALARS = (str, int, float, bool, type(None))


def element_key(value: Any) -> Hashable:
    # 1, 1.0 and True are equal as keys but draw differently; 0.0 and -0.0 too: keep the type, and a
    # float's spelling. A tuple (the (media type, serializer) pairs a body's media type is drawn
    # from, built anew per case) by what it holds.
    kind = type(value)
    if kind in SCALARS:
        return (kind, repr(value) if kind is float else value)
    if kind is tuple:
        return (tuple, *(element_key(item) for item in value))
    return (id(value),)


class MemoStrategies:
    """``hypothesis.strategies`` as schemathesis' modules see it, with the constructors they call per
    case answering from a memo."""

    def __init__(self, strategies: types.ModuleType) -> None:
        self.strategies = strategies
        # key -> (strategy, the arguments it was built from, held so that their ids stay theirs)
        self.memo: dict[Hashable, tuple[Any, Any]] = {}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.strategies, name)

    def remember(self, key: Hashable, build: Callable[[], Any], held: Any) -> Any:
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = (build(), held)
        return found[0]

    def sampled_from(self, elements: Iterable[Any]) -> Any:
        if not isinstance(elements, (list, tuple)):
            return self.strategies.sampled_from(elements)
        key = ("sampled_from", type(elements), tuple(element_key(e) for e in elements))
        return self.remember(key, lambda: self.strategies.sampled_from(elements), elements)

    def fixed_dictionaries(self, mapping: dict[Any, Any], *, optional: Any = None) -> Any:
        if optional is not None or type(mapping) is not dict:
            return self.strategies.fixed_dictionaries(mapping, optional=optional)
        key = ("fixed_dictionaries", tuple((element_key(k), id(v)) for k, v in mapping.items()))
        return self.remember(key, lambda: self.strategies.fixed_dictionaries(mapping), mapping)

    def shared(self, base: Any, *, key: Hashable | None = None) -> Any:
        from hypothesis.strategies._internal.featureflags import FeatureStrategy

        # A fresh FeatureStrategy() per call (the mutations' "which keywords / operators / types are
        # enabled" flags); any two with the same options draw alike.
        if key is None or type(base) is not FeatureStrategy:
            return self.strategies.shared(base, key=key)
        memo_key = ("shared", key, base._at_least_one_of)
        return self.remember(memo_key, lambda: self.strategies.shared(base, key=key), base)


def memo_ordered(memo: MemoStrategies, ordered: Callable[..., Any]) -> Callable[..., Any]:
    """The mutations' ``ordered(items, unique_by=lambda fn: fn.__name__)``: a lambda with no
    closure is the same function each call, named by its code."""

    def memoized(items: Any, unique_by: Callable[[Any], Any] | None = None) -> Any:
        if unique_by is None:
            return ordered(items)
        if getattr(unique_by, "__closure__", True) is not None or not isinstance(items, (list, tuple)):
            return ordered(items, unique_by=unique_by)
        key = ("ordered", tuple(element_key(e) for e in items), unique_by.__code__)
        return memo.remember(key, lambda: ordered(items, unique_by=unique_by), items)

    return memoized


@contextlib.contextmanager
def built_once() -> Iterator[MemoStrategies]:
    """For the length of a fuzz run, schemathesis' per-case strategies come from one memo."""
    from hypothesis import strategies

    import schemathesis.generation.jsonschema.strategy as values
    import schemathesis.specs.openapi._hypothesis as cases
    import schemathesis.specs.openapi.negative as negative
    import schemathesis.specs.openapi.negative.mutations as mutations

    memo = MemoStrategies(strategies)
    patches = [(module, "st", memo) for module in (values, cases, negative, mutations)]
    patches.append((mutations, "ordered", memo_ordered(memo, mutations.ordered)))
    saved = [(module, name, getattr(module, name)) for module, name, _ in patches]
    try:
        for module, name, value in patches:
            setattr(module, name, value)
        yield memo
    finally:
        for module, name, value in saved:
            setattr(module, name, value)
