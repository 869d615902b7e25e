#!/usr/bin/env bash
# The profiler's overhead: builds runtime/examples/profile_overhead twice
# (normal, and with the interpreter hooks compiled out), runs both builds
# interleaved, and prints for each loop: profile off vs the no-hooks build
# (goal: within 2%) and profile on vs off (goal: at most 20% slower).
# Usage: bench/profile_overhead.sh [reps] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-7}
rounds=${2:-3}
dir=target/release/examples
if [ -z "${SKIP_BUILD:-}" ]; then
    cargo build --release -p gcalc-runtime --example profile_overhead --features no-profile-hooks
    cp "$dir/profile_overhead" "$dir/profile_overhead_nohooks"
    cargo build --release -p gcalc-runtime --example profile_overhead
fi
out=$(mktemp)
for _ in $(seq "$rounds"); do
    "$dir/profile_overhead_nohooks" "$reps" >>"$out"
    "$dir/profile_overhead" "$reps" >>"$out"
done
python3 - "$out" <<'PY'
import re, sys
best = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) build=(\S+) off_s=(\S+) on_s=(\S+)", line)
    if not m:
        print(line.strip())
        continue
    name, build, off, on = m.group(1), m.group(2), float(m.group(3)), float(m.group(4))
    b = best.setdefault((name, build), [off, on])
    b[0], b[1] = min(b[0], off), min(b[1], on)
seen = []
for (name, _) in best:
    if name not in seen:
        seen.append(name)
print(f"{'loop':14} {'no-hooks s':>11} {'off s':>9} {'on s':>9} {'off/no-hooks':>13} {'on/off':>7}")
for name in seen:
    nh = best.get((name, "no-hooks"))
    h = best.get((name, "hooks"))
    if not nh or not h:
        continue
    print(f"{name:14} {nh[0]:11.4f} {h[0]:9.4f} {h[1]:9.4f} {h[0]/nh[0]:13.3f} {h[1]/h[0]:7.3f}")
PY
rm -f "$out"
