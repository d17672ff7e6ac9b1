#!/usr/bin/env bash
# Debian's chromium and chromium-headless-shell, when either is missing (and PINCHTAB_CHROME does
# not name another browser). Idempotent; scripts/bootstrap.sh runs it, scripts/test.sh runs it
# beside the rest of the set-up.
set -euo pipefail
# Headless runs take the headless shell (half the CPU per tab: docs/install.md); headed runs and
# the tests of the full browser's own shortcuts take chromium.
if [ -z "${PINCHTAB_CHROME:-}" ] && { [ ! -x /usr/lib/chromium/chromium ] || [ ! -x /usr/lib/chromium/chromium-headless-shell ]; }; then
  echo "install_chromium: installing Debian's chromium and chromium-headless-shell" >&2
  sudo_cmd=""
  if [ "$(id -u)" != "0" ]; then sudo_cmd="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo_cmd apt-get update -qq >/dev/null
  # Both at once: the shell needs the chromium-common of its own version.
  if ! $sudo_cmd apt-get install -y -qq --no-install-recommends chromium chromium-headless-shell fonts-liberation >/dev/null; then
    [ -x /usr/lib/chromium/chromium ] || exit 1
    echo "install_chromium: chromium-headless-shell did not install; headless runs use the full chromium" >&2
  fi
fi
