"""Schemathesis against both /openapi.json (issue 16; the server's in test_fuzz_server.py, so that the
two, the longest tests of the suite, run on two pytest-xdist workers): every documented operation
of a bridge and of the server gets generated requests, valid and not, with the project's own default settings;
no answer may be an unexplained 5xx (an internal error, a CDP error, or a 5xx outside our error
shape). A bounded run with a fixed seed: FUZZ_EXAMPLES requests per operation (env
PINCHTAB_FUZZ_EXAMPLES); on the server, FUZZ_PROXIED per operation it only passes on to a bridge
(the same handler the bridge's run fuzzes: what is left to check there is the proxy)."""

from __future__ import annotations

import collections
import contextlib
import gc
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import ServerThread
from tests.e2e.fuzz_strategies import built_once
from tests.fixtures.harness import free_port

FUZZ_EXAMPLES = int(os.environ.get("PINCHTAB_FUZZ_EXAMPLES", "2"))
FUZZ_PROXIED = int(os.environ.get("PINCHTAB_FUZZ_PROXIED", "1"))
# Left out: operations that wait as long as asked (up to 30 s), restart the browser or start more
# browsers: they are bounded and tested on their own; fuzzing them would only spend CI minutes.
EXCLUDED = r"(/wait$|/browser/restart$|^/instances/start$|/instances/\{instance_id\}/(start|restart)$)"
UNEXPLAINED_CODES = {"internal_error", "cdp_error"}
# Every operation's cases come from this seed: derandomize's would be a digest of the test function's
# source (the cases would change with its text), read and hashed again for each of ~160 operations.
FUZZ_SEED = 22

def fuzz_settings(examples: int) -> Any:
    from hypothesis import HealthCheck, Phase, settings

    return settings(max_examples=examples, deadline=None, derandomize=True, database=None,
                    phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))


statuses: dict[str, collections.Counter[int]] = {"bridge": collections.Counter(), "server": collections.Counter()}
unexplained: list[str] = []
base: dict[str, str] = {}
sessions: dict[str, Any] = {}


def fuzz_config(tmp: Path) -> dict[str, Any]:
    return {"server": {"stateDir": str(tmp)}, "browser": {"navigationTimeoutMs": 5000}}


@pytest.fixture(scope="module")
def bridge_schema(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    schemathesis = load_schemathesis()
    from pinchtab.bridge.app import create_app
    from pinchtab.config import load_config

    # numpy, which the bridge imports when it first finds, imported here: hypothesis looks it up in
    # sys.modules as it draws, and would find it half imported while the bridge's thread imports it.
    import numpy  # noqa: F401

    config = load_config(fuzz_config(tmp_path_factory.mktemp("fuzz-bridge")), environ={})
    with ServerThread(create_app(config), free_port()) as server:
        base["bridge"] = server.url
        yield schemathesis.openapi.from_url(f"{server.url}/openapi.json")


def load_schemathesis() -> Any:
    """schemathesis (with hypothesis), imported by the fixtures that need it: every pytest-xdist
    worker collects this module, and importing the two there cost each 0.6 s of CPU."""
    return pytest.importorskip("schemathesis")


def figure(which: str) -> str:
    counts = statuses[which]
    total = sum(counts.values())
    spread = ", ".join(f"{s}: {n}" for s, n in sorted(counts.items()))
    per = f"{FUZZ_EXAMPLES} per operation" + (f", {FUZZ_PROXIED} per proxied one" if which == "server" else "")
    return (f"fuzz {which}: {total} requests ({per}); statuses {spread}; "
            f"unexplained 5xx: {sum(1 for u in unexplained if u.startswith(which))}")


def is_stream(op: Any) -> bool:
    responses = op.definition.raw.get("responses", {})
    return any("text/event-stream" in (r.get("content") or {}) for r in responses.values() if isinstance(r, dict))


def check(which: str, case: Any, stream: bool = False) -> None:
    if stream:
        res = open_stream(which, case)
    else:
        res = case.call(base_url=base[which], session=sessions[which], timeout=90)
    statuses[which][res.status_code] += 1
    if res.status_code < 500:
        return
    try:
        code = json.loads(res.content).get("code")
    except (ValueError, AttributeError):
        code = None
    if code is None or code in UNEXPLAINED_CODES:
        # The case itself too: it is sent on the sender's thread, where hypothesis does not report it.
        what = f"{which} {case.method} {case.formatted_path} -> {res.status_code} {res.text[:300]} ({repr(case)[:300]})"
        unexplained.append(what)
        raise AssertionError(f"unexplained 5xx: {what}")


def open_stream(which: str, case: Any) -> Any:
    """``case``'s request as schemathesis sends it, read as far as the check needs: an event stream
    stays open until its caller leaves (events come only as the tab's network changes), and
    schemathesis would read one until a timeout; its status is known with its headers, and an error
    (a 4xx or 5xx) is a JSON body that ends."""
    data = case.as_transport_kwargs(base_url=base[which])
    res = sessions[which].request(**data, stream=True, timeout=90)
    if res.status_code < 400:
        res.close()
    else:
        res.content  # noqa: B018 - read before the stream is released
    return res


def real_tab(which: str, pages: str) -> str:
    import httpx

    res = httpx.post(f"{base[which]}/navigate", json={"url": f"{pages}/form.html", "newTab": True}, timeout=60,
                     trust_env=False)
    assert res.status_code == 200, res.text
    return res.json()["tabId"]


def operations(schema: Any) -> set[tuple[str, str]]:
    """(METHOD, path) of every operation of ``schema``."""
    return {(op.method.upper(), op.path) for op in (r.ok() for r in schema.get_all_operations())}


@contextlib.contextmanager
def one_session() -> Iterator[Any]:
    """One keep-alive session for a whole run: without one, schemathesis opens a session, and a
    connection the server accepts, per request. The session it would open, with its redirect rule and
    no default headers; no cookie is kept (each request stands alone, as with a fresh session) and
    nothing is read from the environment (no proxy, no .netrc)."""
    import http.cookiejar

    from schemathesis.transport.requests import SameHostRedirectsSession

    with SameHostRedirectsSession() as session:
        session.headers.clear()
        session.trust_env = False
        session.cookies.set_policy(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
        yield session


@contextlib.contextmanager
def few_collections() -> Iterator[None]:
    """Generating the cases allocates a great deal (strategies are built anew for every case): with the
    default thresholds the collector ran ~640 times in the bridge's run and walked the whole heap (an
    in-process bridge, schemathesis, hypothesis) each time its oldest generation came up, 1.2 s of the
    run's CPU. Frozen objects are not walked and a larger first threshold collects less often: 0.4 s.
    What is frozen stays frozen (tests/conftest.py freezes the heap loaded at collection, and an
    unfreeze here would undo that for the rest of the worker's run)."""
    thresholds = gc.get_threshold()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


@contextlib.contextmanager
def no_local_constants() -> Iterator[None]:
    """Hypothesis mixes into generated values constants it reads from the source of every loaded
    module outside site-packages and tests: all of pinchtab's (~200 modules parsed on a fresh clone,
    cached under .hypothesis after). The cases then depended on which pinchtab modules a worker had
    loaded at each draw (its file order, the bridge's lazy imports), not on the seed alone; this run's
    values come from the OpenAPI schemas. Private to hypothesis (hypothesis.internal), so the run
    only leaves it out while it lasts, and takes whatever hypothesis has if that name is gone."""
    from hypothesis.internal.conjecture import providers
    from hypothesis.internal.constants_ast import Constants

    original = getattr(providers, "_get_local_constants", None)
    if original is None:
        yield
        return
    none = Constants()
    providers._get_local_constants = lambda: none
    providers.CONSTANTS_CACHE.cache.clear()
    try:
        yield
    finally:
        providers._get_local_constants = original
        providers.CONSTANTS_CACHE.cache.clear()


def fuzz(which: str, schema: Any, tab: str, proxied: set[tuple[str, str]] = frozenset()) -> None:
    """Every operation: FUZZ_EXAMPLES generated requests (FUZZ_PROXIED for those in ``proxied``),
    valid (positive) and invalid (negative)."""
    with few_collections(), built_once(), no_local_constants(), one_session() as sessions[which]:
        fuzz_operations(which, schema, tab, proxied)


def fuzz_operations(which: str, schema: Any, tab: str, proxied: set[tuple[str, str]]) -> None:
    """The cases are generated on this thread and sent, in the order generated, on a thread of its
    own: generating one (the run's CPU) and waiting for the answer to the one before overlap. Nothing
    generated depends on an answer."""
    import concurrent.futures
    import re

    import schemathesis
    from hypothesis import given, seed
    from hypothesis import strategies as st

    sent: list[tuple[str, concurrent.futures.Future[None]]] = []
    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix=f"fuzz-{which}") as sender:
        for result in schema.get_all_operations():
            op = result.ok()
            if re.search(EXCLUDED, op.path):
                continue
            # Half the tab routes act on a real tab (a form page), so the work behind them runs too.
            on_tab = [{"tab_id": tab}] if "{tab_id}" in op.path else []
            label, stream = op.label, is_stream(op)
            modes = []
            for mode in (schemathesis.GenerationMode.POSITIVE, schemathesis.GenerationMode.NEGATIVE):
                for path in [None, *on_tab]:
                    try:
                        modes.append(op.as_strategy(mode, path_parameters=path))
                    except Exception:  # an operation with nothing to make invalid
                        pass

            @seed(FUZZ_SEED)
            @fuzz_settings(FUZZ_PROXIED if (op.method.upper(), op.path) in proxied else FUZZ_EXAMPLES)
            @given(case=st.one_of(modes))
            def run(case: Any) -> None:
                sent.append((label, sender.submit(check, which, case, stream)))

            # The key under which hypothesis would store the run's examples, with no database to store
            # them in: without one given, it is a digest of run's source (inspect.getsource), read and
            # hashed again for every operation, ~5% of the run's CPU. The key `find` gives its runs.
            run._hypothesis_internal_database_key = None  # type: ignore[attr-defined]
            run()
    failures = []
    for label, request in sent:
        try:
            request.result()
        except AssertionError as exc:
            failures.append(f"{label}: {exc}")
    assert not failures, "\n".join(failures)


def test_fuzz_bridge(bridge_schema: Any, pages: str, record_property: Any) -> None:
    try:
        fuzz("bridge", bridge_schema, real_tab("bridge", pages))
    finally:
        record_property("figure", figure("bridge"))
