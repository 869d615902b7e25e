#!/usr/bin/env bash
# The Jupyter tests: the tests' cached venv (tests/venv.sh: jupyter_client,
# jupyter_kernel_test, nbclient, nbformat, ipykernel, pytest, numpy,
# JupyterLab, Playwright), or GCALC_TEST_PYTHON; the gcalc binary built (or
# GCALC_BIN); the kernelspec and JupyterLab extension installed into a
# throw-away prefix (the Pygments lexer into the venv); pytest. The browser
# test needs Debian's Chromium (/usr/bin/chromium, or GCALC_CHROMIUM): it
# skips without one, and fails instead when GCALC_REQUIRE_BROWSER=1 (CI).
# Usage: tests/jupyter/run.sh [--bench] [pytest args...]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
bench=0
if [[ "${1:-}" == "--bench" ]]; then bench=1; shift; fi

# The tests' venv (tests/venv.sh; tests/run makes it once and exports it).
py="${GCALC_TEST_PYTHON:-}"
if [[ -z "$py" ]]; then
    py="$(bash "$root/tests/venv.sh")"
fi
venv_python="$py"

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
"$bin" jupyter install --prefix "$tmp/prefix" --python "$venv_python" >/dev/null
export JUPYTER_PATH="$tmp/prefix/share/jupyter"
export JUPYTER_RUNTIME_DIR="$tmp/runtime"
export XDG_DATA_HOME="$tmp/data"
export JUPYTER_PLATFORM_DIRS=1
export PYDEVD_DISABLE_FILE_VALIDATION=1
export GCALC_FLAGS="${GCALC_FLAGS:-device=cpu}"

cd "$here"
if [[ $bench == 1 ]]; then
    exec "$venv_python" bench_kernel.py
fi
"$venv_python" -m pytest -q -p no:cacheprovider "$@" test_kernel.py test_client.py test_memory.py test_notebooks.py test_frontends.py test_browser.py
