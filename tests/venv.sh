#!/usr/bin/env bash
# The tests' Python: a cached virtual environment with every tests/*/requirements.txt
# (NumPy for the differential tests, jupyter_client & co for the kernel tests),
# keyed by their contents and the Python version, so it is made once.
# Prints the venv's python on stdout (progress goes to stderr).
# Usage: py="$(bash tests/venv.sh)". PYTHON picks the base interpreter.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
py="${PYTHON:-}"
if [[ -z "$py" ]]; then
    for c in python3.11 python3 python; do
        if command -v "$c" >/dev/null 2>&1; then py="$c"; break; fi
    done
fi
[[ -n "$py" ]] || { echo "venv.sh: no python3 found" >&2; exit 2; }
reqs=("$here"/*/requirements.txt)
key="$( (cat "${reqs[@]}"; "$py" --version) | sha256sum | cut -c1-12)"
cache="${XDG_CACHE_HOME:-$HOME/.cache}/gcalc"
venv="$cache/test-venv-$key"
if [[ ! -x "$venv/bin/python" || ! -f "$venv/.complete" ]]; then
    echo "venv.sh: creating $venv" >&2
    rm -rf "$venv"
    mkdir -p "$cache"
    "$py" -m venv "$venv" >&2
    "$venv/bin/python" -m pip install -q --disable-pip-version-check --upgrade pip >&2
    for r in "${reqs[@]}"; do
        "$venv/bin/python" -m pip install -q --disable-pip-version-check -r "$r" >&2
    done
    touch "$venv/.complete"
fi
echo "$venv/bin/python"
