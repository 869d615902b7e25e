#!/usr/bin/env bash
# Rebuild the prebuilt JupyterLab extension into repl/assets/labextension/,
# which is committed: the gcalc binary embeds it and `gcalc jupyter install`
# writes it out, so building gcalc needs no node. Run this after changing
# anything here; it records the sources' sha256 in SOURCES.sha256, which a
# test (`labextension_build_is_current`) compares with the sources.
# Needs node/npm and a Python with jupyterlab (PYTHON=..., e.g. the venv that
# tests/jupyter/run.sh makes); its staging/package.json names the shared
# packages JupyterLab provides.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
py="${PYTHON:-python3}"
cd "$here"
npm ci --no-audit --no-fund
npx tsc
core="$("$py" -c 'import jupyterlab, os; print(os.path.join(os.path.dirname(jupyterlab.__file__), "staging"))')"
rm -rf build
node node_modules/@jupyterlab/builder/lib/build-labextension.js --core-path "$core" .
out="$root/repl/assets/labextension"
rm -rf "$out"
mkdir -p "$out"
cp -r build/. "$out/"
sha256sum package.json package-lock.json tsconfig.json src/index.ts > "$out/SOURCES.sha256"
echo "built $(cd "$out" && find . -type f | sort | tr '\n' ' ')"
