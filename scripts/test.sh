#!/usr/bin/env bash
# Installs what the tests need (Chromium, .venv, pinchtab with the dev dependency group), then runs the whole
# suite: unit tests and end-to-end tests against a real headless Chromium. Extra args go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh --dev
exec .venv/bin/python -m pytest -q "$@"
