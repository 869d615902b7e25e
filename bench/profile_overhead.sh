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
#
# `--instructions` instead counts the instructions each loop executes under
# callgrind (valgrind), profile off in both builds and on in the normal one:
# deterministic, where times on a shared VM move by tens of percent.
# SKIP_BUILD=1 uses binaries already built; PROFILE_OVERHEAD_DIR names the
# folder holding profile_overhead and profile_overhead_nohooks (to time them
# on another, quieter machine).
# Usage: bench/profile_overhead.sh [reps] [rounds]
#        bench/profile_overhead.sh --instructions
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${PROFILE_OVERHEAD_DIR:-target/release/examples}
if [ -z "${SKIP_BUILD:-}" ]; then
    cargo build --release -p gcalc-runtime --example profile_overhead --features no-profile-hooks
    cp "$dir/profile_overhead" "$dir/profile_overhead_nohooks"
    cargo build --release -p gcalc-runtime --example profile_overhead
fi
if [ "${1:-}" = "--instructions" ]; then
    command -v valgrind >/dev/null || { echo "--instructions needs valgrind" >&2; exit 1; }
    count() { # build mode program -> instructions inside time_once
        local out
        out=$(mktemp)
        PROFILE_OVERHEAD_ONLY=$3 PROFILE_OVERHEAD_MODE=$2 valgrind --tool=callgrind \
            --toggle-collect='*time_once*' --callgrind-out-file="$out" "$dir/$1" 1 >/dev/null 2>&1
        awk '/^summary:/ {print $2}' "$out"
        rm -f "$out"
    }
    printf '%-14s %14s %14s %14s %13s %7s\n' loop no-hooks off on off/no-hooks on/off
    for p in $("$dir/profile_overhead" 0 | awk '{print $1}'); do
        nh=$(count profile_overhead_nohooks off "$p")
        off=$(count profile_overhead off "$p")
        on=$(count profile_overhead on "$p")
        python3 -c "import sys; p,nh,off,on=sys.argv[1],*map(int,sys.argv[2:]); print(f'{p:14} {nh:14,} {off:14,} {on:14,} {off/nh:13.4f} {on/off:7.3f}')" "$p" "$nh" "$off" "$on"
    done
    echo "(instructions executed in one timed run of each loop, session set-up included)"
    exit 0
fi
reps=${1:-7}
rounds=${2:-5}
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
