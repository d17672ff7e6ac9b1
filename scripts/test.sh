#!/usr/bin/env bash
# Installs what the tests need (Chromium, .venv, pinchtab with the dev dependency group), builds the docs site
# (mkdocs --strict, into a temp dir) and runs the whole suite: unit tests and end-to-end tests
# against a real headless Chromium. Extra args go to pytest.
#
# The suite runs on PINCHTAB_TEST_WORKERS pytest-xdist workers (default 3), each with its own
# bridges and Chromium; --dist loadfile keeps a test file on one worker, so a file's module-scoped
# server and the order of its tests stay as written, and --no-loadscope-reorder hands the files out
# in collection order, which tests/conftest.py sorts longest first. Measured figures: the
# "Tests, docs and CI" section of docs/contributing.md.
set -euo pipefail
cd "$(dirname "$0")/.."
site=$(mktemp -d)
docs_log="$site.log"
browser_log="$site.browser.log"
trap 'rm -rf "$site" "$docs_log" "$browser_log"' EXIT
# On a fresh machine Chromium's packages install (apt) while .venv is made, the docs are built and
# the tests collected: only the tests' run needs the browser.
./scripts/install_chromium.sh >"$browser_log" 2>&1 &
browser_pid=$!
./scripts/bootstrap.sh --dev --no-browser
# The docs build is CPU work of its own; it runs while pytest starts its workers and browsers.
NO_MKDOCS_2_WARNING=1 .venv/bin/mkdocs build --strict --quiet --site-dir "$site" >"$docs_log" 2>&1 &
docs_pid=$!

# Bytecode is written even where the environment says not to: pytest then keeps each test module's
# assertion rewrite (a worker's collection: 15 s of CPU without it, 6 s with it on the next run), and
# the suite's many Python processes (servers, bridges, CLI and MCP runs) compile pinchtab once.
# The suite calls schemathesis and hypothesis itself: their pytest plugins would only cost each
# process time to load (hypothesis's ~0.5 s of CPU).
unset PYTHONDONTWRITEBYTECODE
# Every worker collects every test module: on a clean clone each would rewrite and compile them all
# (3 workers: 57 s of CPU). One collection first writes that cache and pinchtab's bytecode, and the
# workers load it (23 + 21 s). Skipped once the cache is there. The whole suite's is two processes,
# one per core (unit tests; end-to-end and hostile ones): they split rewriting the tests' asserts
# and both compile pinchtab's imports (on a quiet machine 12.8 s for one, 9.1 s for the two).
collect() { .venv/bin/python -m pytest -q --collect-only -p no:schemathesis -p no:hypothesispytest "$@" >/dev/null 2>&1 || true; }
if ! compgen -G "tests/__pycache__/conftest.*-pytest-*.pyc" >/dev/null; then
  if [ "$#" -eq 0 ]; then
    collect tests/unit &
    unit_collect=$!
    collect tests/e2e tests/hostile
    wait "$unit_collect"
  else
    collect "$@"
  fi
fi
if ! wait "$browser_pid"; then
  cat "$browser_log" >&2
  echo "scripts/install_chromium.sh failed" >&2
  exit 1
fi
cat "$browser_log" >&2
status=0
.venv/bin/python -m pytest -q -n "${PINCHTAB_TEST_WORKERS:-3}" --dist loadfile --no-loadscope-reorder -p no:schemathesis -p no:hypothesispytest "$@" \
  || status=$?

# Silent when it passed, so pytest's summary stays the last line.
if ! wait "$docs_pid"; then
  echo "mkdocs build --strict failed:" >&2
  cat "$docs_log" >&2
  status=1
fi
exit "$status"
