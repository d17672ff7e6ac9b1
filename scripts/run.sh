#!/usr/bin/env bash
# Fresh machine to running server: installs Chromium (if missing), .venv and pinchtab, then starts
# `pinchtab server` on 127.0.0.1:9867 with its default browser instance. Extra arguments go to it.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
exec .venv/bin/pinchtab server "$@"
