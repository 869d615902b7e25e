"""Benchmark: gcalc's kernel against ipykernel, measured the same way in the
same run. Round trip of execute("1+1") to the idle status (median of 200),
and kernel start to kernel_info_reply (median of 5). Prints a table with
ratios; it asserts nothing."""
import os
import statistics
import sys
import time

from jupyter_client.manager import KernelManager

N = int(os.environ.get("BENCH_N", "200"))
STARTS = int(os.environ.get("BENCH_STARTS", "5"))
CODE = {"gcalc": os.environ.get("BENCH_CODE_GCALC", "1+1"), "python3": "1+1"}


def start_to_info(name):
    km = KernelManager(kernel_name=name)
    t0 = time.perf_counter()
    km.start_kernel()
    kc = km.client()
    kc.start_channels()
    # poll kernel_info until the reply comes, as jupyter_client's wait_for_ready does
    while True:
        kc.kernel_info()
        try:
            kc.get_shell_msg(timeout=0.01)
            break
        except Exception:
            if time.perf_counter() - t0 > 30:
                raise
    dt = time.perf_counter() - t0
    return dt, km, kc


def round_trips(kc, code):
    times = []
    for i in range(N + 10):
        t0 = time.perf_counter()
        msg_id = kc.execute(code)
        while True:
            m = kc.get_iopub_msg(timeout=10)
            if (
                m["parent_header"].get("msg_id") == msg_id
                and m["msg_type"] == "status"
                and m["content"]["execution_state"] == "idle"
            ):
                break
        dt = time.perf_counter() - t0
        kc.get_shell_msg(timeout=10)
        if i >= 10:
            times.append(dt)
    return times


def measure(name):
    starts = []
    for i in range(STARTS):
        dt, km, kc = start_to_info(name)
        starts.append(dt)
        if i < STARTS - 1:
            kc.stop_channels()
            km.shutdown_kernel(now=True)
    while True:  # settle IOPub
        try:
            kc.get_iopub_msg(timeout=0.3)
        except Exception:
            break
    rt = round_trips(kc, CODE[name])
    kc.stop_channels()
    km.shutdown_kernel(now=True)
    return statistics.median(starts), statistics.median(rt), min(rt)


def main():
    res = {name: measure(name) for name in ("gcalc", "python3")}
    g, p = res["gcalc"], res["python3"]
    print(f"round trip code: gcalc {CODE['gcalc']!r}, ipykernel '1+1'; N={N}, starts={STARTS}")
    print(f"{'measure':34} {'gcalc':>10} {'ipykernel':>10} {'ratio':>7}")
    rows = [
        ("start -> kernel_info_reply (ms)", g[0], p[0]),
        ("execute -> idle median (ms)", g[1], p[1]),
        ("execute -> idle min (ms)", g[2], p[2]),
    ]
    for label, a, b in rows:
        print(f"{label:34} {a * 1e3:10.3f} {b * 1e3:10.3f} {a / b:7.2f}")
    ok_rt = g[1] <= p[1]
    ok_start = g[0] <= 0.300
    print(f"targets: round trip <= ipykernel: {'met' if ok_rt else 'MISSED'}; "
          f"start <= 300 ms: {'met' if ok_start else 'MISSED'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
