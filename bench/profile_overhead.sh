#!/usr/bin/env bash
# The profiler's overhead: builds runtime/examples/profile_overhead twice
# (normal, and with the interpreter hooks compiled out), runs both builds
# interleaved, and prints for each loop: profile off vs the no-hooks build
# (goal: within 2%) and profile on vs off (goal: at most 20% slower).
# Each round runs both builds one after the other (interleaved) and each
# takes the best of `reps` runs; the table shows the median over the rounds
# (and the spread of the off/no-hooks ratio), as the machine is noisy.
# Times are the benchmark thread's CPU time (PROFILE_OVERHEAD_CLOCK=wall for
# wall time): see runtime/examples/profile_overhead.rs.
# Usage: bench/profile_overhead.sh [reps] [rounds]
set -euo pipefail
cd "$(dirname "$0")/.."
reps=${1:-7}
rounds=${2:-5}
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
import re, sys, statistics
runs = {}
for line in open(sys.argv[1]):
    m = re.match(r"(\S+) build=(\S+) off_s=(\S+) on_s=(\S+)", line)
    if not m:
        print(line.strip())
        continue
    name, build, off, on = m.group(1), m.group(2), float(m.group(3)), float(m.group(4))
    runs.setdefault((name, build), []).append((off, on))
seen = []
for (name, _) in runs:
    if name not in seen:
        seen.append(name)
med = statistics.median
print(f"{'loop':14} {'no-hooks s':>11} {'off s':>9} {'on s':>9} {'off/no-hooks':>13} {'(min-max)':>13} {'on/off':>7}")
for name in seen:
    nh = runs.get((name, "no-hooks"))
    h = runs.get((name, "hooks"))
    if not nh or not h:
        continue
    ratios = [a[0] / b[0] for a, b in zip(h, nh)]
    nh_off, off, on = med([r[0] for r in nh]), med([r[0] for r in h]), med([r[1] for r in h])
    print(f"{name:14} {nh_off:11.4f} {off:9.4f} {on:9.4f} {off/nh_off:13.3f} "
          f"{min(ratios):6.3f}-{max(ratios):.3f} {med([r[1] / r[0] for r in h]):7.3f}")
print(f"(medians over {len(next(iter(runs.values())))} interleaved rounds, each the best of its runs)")
PY
rm -f "$out"
