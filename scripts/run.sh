#!/usr/bin/env bash
# Fresh machine to running server: installs Chromium (if missing), .venv and pinchtab, then starts the
# pinchtab on 127.0.0.1:9867. Extra arguments go to the pinchtab command.
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/bootstrap.sh
exec .venv/bin/pinchtab server "$@"
