#!/usr/bin/env bash
# The Jupyter tests: a cached venv with jupyter_client, jupyter_kernel_test,
# nbclient, nbformat, ipykernel, pytest, JupyterLab and Playwright; the gcalc
# binary built (or GCALC_BIN); the kernelspec and JupyterLab extension
# installed into a throw-away prefix; pytest. The browser test needs Debian's
# Chromium (/usr/bin/chromium, or GCALC_CHROMIUM): it skips without one, and
# fails instead when GCALC_REQUIRE_BROWSER=1 (CI).
# Usage: tests/jupyter/run.sh [--bench] [pytest args...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bench=0
if [[ "${1:-}" == "--bench" ]]; then bench=1; shift; fi

py="${PYTHON:-}"
if [[ -z "$py" ]]; then
    for c in python3.11 python3 python; do
        if command -v "$c" >/dev/null 2>&1; then py="$c"; break; fi
    done
fi
[[ -n "$py" ]] || { echo "run.sh: no python3 found" >&2; exit 2; }

req="$here/requirements.txt"
key="$( (cat "$req"; "$py" --version) | sha256sum | cut -c1-12)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/gcalc"
venv="$cache/jupyter-venv-$key"
if [[ ! -x "$venv/bin/python" || ! -f "$venv/.complete" ]]; then
    echo "run.sh: creating $venv"
    rm -rf "$venv"
    mkdir -p "$cache"
    "$py" -m venv "$venv"
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip
    "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$req"
    touch "$venv/.complete"
fi

bin="${GCALC_BIN:-}"
if [[ -z "$bin" ]]; then
    profile_flag=()
    dir=debug
    if [[ $bench == 1 ]]; then profile_flag=(--release); dir=release; fi
    (cd "$root" && cargo build -q -p gcalc "${profile_flag[@]}")
    target="${CARGO_TARGET_DIR:-$root/target}"
    bin="$target/$dir/gcalc"
fi
[[ -x "$bin" ]] || { echo "run.sh: no gcalc binary at $bin" >&2; exit 2; }

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
# The kernelspec and the JupyterLab extension into the throw-away prefix; the
# Pygments lexer (nbconvert) into the venv.
"$bin" jupyter install --prefix "$tmp/prefix" --python "$venv/bin/python" >/dev/null
export JUPYTER_PATH="$tmp/prefix/share/jupyter"
export JUPYTER_RUNTIME_DIR="$tmp/runtime"
export XDG_DATA_HOME="$tmp/data"
export JUPYTER_PLATFORM_DIRS=1
export PYDEVD_DISABLE_FILE_VALIDATION=1
export GCALC_FLAGS="${GCALC_FLAGS:-device=cpu}"

cd "$here"
if [[ $bench == 1 ]]; then
    exec "$venv/bin/python" bench_kernel.py
fi
"$venv/bin/python" -m pytest -q -p no:cacheprovider "$@" test_kernel.py test_client.py test_notebooks.py test_frontends.py test_browser.py
