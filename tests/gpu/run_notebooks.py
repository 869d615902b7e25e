"""Execute gcalc notebooks headless through nbclient and check where their GPU cells ran.

Usage: python3 run_notebooks.py NOTEBOOK_DIR   (tests/gpu/run-notebooks sets up the
kernelspec, PYTHONPATH and the environment; see it for the variables).

For each notebook: every code cell runs (timeout GCALC_NB_TIMEOUT seconds per cell,
default 600); an error in a cell fails the notebook. Then the GPU check: a "GPU
cell" is a code cell whose source calls gpu( (notebooks guard these with
`if has_gpu { ... } else { print("no GPU found: ...") }`). On a GPU host a notebook
with GPU cells passes only if no output says "no GPU found", no output says a
device is "unusable", and at least one GPU cell's output names gpu(N) (an array's
`@gpu(0)` footer, `Used the gpu(0)`, ...). On a CPU-only machine that check fails:
the GPU cells print "no GPU found" and nothing lands on gpu(0).

GCALC_REQUIRE_GPU=1 (set by .gpu/run and .gpu/run-notebooks): a failed GPU check
fails the run. Unset: it is reported ("no GPU found") but does not fail.
OUT set: the executed notebooks and summary.txt are written to $OUT/notebooks/.
Exit status: the number of failed notebooks.
"""
import os
import pathlib
import re
import sys
import tempfile
import time
import traceback

import nbformat
from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError, CellTimeoutError

DEVICE_RE = re.compile(r"gpu\(\d+\)")
NO_GPU = "no GPU found"


def output_text(out):
    """The text of one output: stream text, text/plain of results and displays, errors."""
    kind = out.get("output_type")
    if kind == "stream":
        return out.get("text", "")
    if kind in ("execute_result", "display_data"):
        return out.get("data", {}).get("text/plain", "")
    if kind == "error":
        return "\n".join([out.get("ename", ""), out.get("evalue", "")] + list(out.get("traceback", [])))
    return ""


def cell_lines(cell):
    text = "".join(output_text(o) for o in cell.get("outputs", []))
    return [line for line in text.splitlines() if line.strip()]


def is_gpu_cell(cell):
    return cell.cell_type == "code" and "gpu(" in cell.source


def run_one(path, timeout, require_gpu, out_dir):
    nb = nbformat.read(path, as_version=4)
    code_cells = [c for c in nb.cells if c.cell_type == "code"]
    problems = []
    t0 = time.time()
    with tempfile.TemporaryDirectory(prefix="gcalc-nb-") as work:
        client = NotebookClient(
            nb,
            kernel_name="gcalc",
            timeout=timeout,
            startup_timeout=60,
            resources={"metadata": {"path": work}},
        )
        try:
            client.execute()
        except CellTimeoutError as e:
            problems.append("cell timed out (%ss): %s" % (timeout, str(e).strip().splitlines()[0][:200]))
        except CellExecutionError as e:
            lines = [ln for ln in str(e).splitlines() if ln.strip()]
            problems.append("cell error: " + " | ".join(lines[-6:])[:600])
        except Exception as e:  # kernel died, could not start, ...
            problems.append("run failed: %s: %s" % (type(e).__name__, e))
            traceback.print_exc(limit=-3)
    secs = time.time() - t0
    # Any error output (allow_errors is off, so the first one stopped the run).
    for c in code_cells:
        for o in c.get("outputs", []):
            if o.get("output_type") == "error" and not any(p.startswith("cell error") for p in problems):
                problems.append("cell error: %s: %s" % (o.get("ename"), o.get("evalue", "")[:300]))
    executed = sum(1 for c in code_cells if c.get("execution_count") is not None)

    # Where did the GPU cells run?
    gpu_cells = [c for c in code_cells if is_gpu_cell(c)]
    all_lines = [ln for c in code_cells for ln in cell_lines(c)]
    def names_gpu(ln):  # "no GPU found: skipping arrays created on gpu(0)" does not count
        return DEVICE_RE.search(ln) and NO_GPU not in ln and "unusable" not in ln
    device_lines = [ln.strip() for ln in all_lines if names_gpu(ln)]
    gpu_cell_device_lines = [ln for c in gpu_cells for ln in cell_lines(c) if names_gpu(ln)]
    no_gpu_lines = [ln.strip() for ln in all_lines if NO_GPU in ln]
    unusable = [ln.strip() for ln in all_lines if DEVICE_RE.search(ln) and "unusable" in ln]
    gpu_problems = []
    if gpu_cells:
        if no_gpu_lines:
            gpu_problems.append("%d output line(s) say %r, e.g. %r" % (len(no_gpu_lines), NO_GPU, no_gpu_lines[0][:120]))
        if unusable:
            gpu_problems.append("a GPU is unusable: %r" % unusable[0][:160])
        if not gpu_cell_device_lines:
            gpu_problems.append("no output of its %d GPU cell(s) names gpu(N)" % len(gpu_cells))
    if gpu_problems:
        if require_gpu:
            problems.extend("GPU check: " + p for p in gpu_problems)
        gpu_state = "NO GPU (" + "; ".join(gpu_problems) + ")"
    elif gpu_cells:
        gpu_state = "GPU cells ran on the GPU"
    else:
        gpu_state = "no GPU cells"

    if out_dir is not None:
        nbformat.write(nb, str(out_dir / path.name))
    summary = "%-30s %s  %2d/%2d cells  %6.1f s  %2d GPU cells  %2d device lines  %s" % (
        path.name,
        "ok  " if not problems else "FAIL",
        executed,
        len(code_cells),
        secs,
        len(gpu_cells),
        len(device_lines),
        gpu_state,
    )
    shown = list(dict.fromkeys(ln.strip() for ln in gpu_cell_device_lines)) or device_lines
    return summary, problems, shown


def main():
    nb_dir = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "notebooks")
    paths = sorted(nb_dir.glob("*.ipynb"))
    only = os.environ.get("GCALC_NB_ONLY")  # substring filter, e.g. 01-gpu
    if only:
        paths = [p for p in paths if only in p.name]
    if not paths:
        print("run_notebooks: no notebook in %s" % nb_dir, file=sys.stderr)
        return 1
    timeout = int(os.environ.get("GCALC_NB_TIMEOUT", "600"))
    require_gpu = os.environ.get("GCALC_REQUIRE_GPU", "") not in ("", "0")
    out_dir = None
    if os.environ.get("OUT"):
        out_dir = pathlib.Path(os.environ["OUT"]) / "notebooks"
        out_dir.mkdir(parents=True, exist_ok=True)
    print("== notebooks: %d in %s, timeout %d s per cell, GCALC_REQUIRE_GPU=%s, GCALC_FLAGS=%s"
          % (len(paths), nb_dir, timeout, "1" if require_gpu else "unset", os.environ.get("GCALC_FLAGS", "")), flush=True)
    summaries, failed, any_gpu = [], 0, False
    for i, p in enumerate(paths):
        if i > 0 and any("Kernel didn't respond" in s or "Kernel died" in s for s in summaries):
            line = "%-30s FAIL  not run: the kernel did not start for the notebook before" % p.name
            print(line)
            summaries.append(line)
            failed += 1
            continue
        summary, problems, device_lines = run_one(p, timeout, require_gpu, out_dir)
        any_gpu = any_gpu or "ran on the GPU" in summary
        print(summary, flush=True)
        for d in device_lines[:4]:
            print("    device: " + d[:150])
        for pr in problems:
            print("    " + pr)
        summaries.append(summary)
        summaries.extend("    " + pr for pr in problems)
        failed += bool(problems)
    if not any_gpu:
        line = "no GPU found: no notebook's GPU cells ran on a GPU" + (
            " (GCALC_REQUIRE_GPU=1: that is a failure)" if require_gpu else " (GCALC_REQUIRE_GPU unset: not a failure)")
        print(line)
        summaries.append(line)
        if require_gpu and failed == 0:
            failed = 1
    final = "== notebooks done: %d of %d failed" % (failed, len(paths))
    print(final)
    summaries.append(final)
    if out_dir is not None:
        (out_dir / "summary.txt").write_text("\n".join(summaries) + "\n")
        print("executed notebooks written to %s" % out_dir)
    return failed


if __name__ == "__main__":
    sys.exit(main())
