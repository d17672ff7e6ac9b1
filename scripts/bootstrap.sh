#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: Debian's Chromium (when missing), .venv in the
# repository root, and this package with its dependencies (and test extras with --dev).
set -euo pipefail
cd "$(dirname "$0")/.."

extras=""
if [ "${1:-}" = "--dev" ]; then extras="[dev]"; fi

if [ -z "${PINCHTAB_CHROME:-}" ] && [ ! -x /usr/lib/chromium/chromium ]; then
  echo "bootstrap: installing Debian's chromium" >&2
  sudo_cmd=""
  if [ "$(id -u)" != "0" ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq >/dev/null
  $sudo_cmd apt-get install -y -qq --no-install-recommends chromium fonts-liberation >/dev/null
fi

python=${PYTHON:-python3}
if [ ! -x .venv/bin/python ]; then
  echo "bootstrap: creating .venv" >&2
  "$python" -m venv .venv
fi

# Reinstall only when pyproject.toml changed since the last install.
stamp=.venv/.pinchtab-installed${extras:+-dev}
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "bootstrap: installing pinchtab${extras} into .venv" >&2
  .venv/bin/python -m pip install -q --upgrade pip >/dev/null
  .venv/bin/python -m pip install -q -e ".${extras}"
  touch "$stamp"
fi
