"""NumPy side of gcalc's differential tests (tests/numpy/src/oracle.rs runs it).

Reads cases as JSON lines {"id": N, "code": "..."} on stdin; runs each code
with `np` bound and takes the variable `out`; writes one line per case:
    N<TAB>ok<TAB>dtype<TAB>d0,d1,...<TAB>hex of the C-order little-endian bytes
    N<TAB>err<TAB>BuiltinExceptionClass<TAB>message
One process serves whole batches (thousands of cases), answering each case
as it comes, so a caller may send more batches to the same process. Python 3.9+, NumPy 2.
"""
import json
import sys
import warnings

import numpy as np


def value_line(v):
    a = np.asarray(v)
    if a.dtype == object:
        raise TypeError("result is not a numeric array: %r" % (v,))
    if a.dtype.byteorder == ">":
        a = a.astype(a.dtype.newbyteorder("<"))
    shape = ",".join(str(d) for d in a.shape)
    return "ok\t%s\t%s\t%s" % (a.dtype.name, shape, a.tobytes(order="C").hex())


def error_line(e):
    cls = next(c for c in type(e).__mro__ if c.__module__ == "builtins")
    msg = str(e).replace("\\", "\\\\").replace("\t", " ").replace("\n", "\\n")
    return "err\t%s\t%s" % (cls.__name__, msg)


def main():
    warnings.simplefilter("ignore")
    out = sys.stdout
    while True:
        line = sys.stdin.readline()
        if not line:
            break
        if not line.strip():
            continue
        case = json.loads(line)
        ns = {"np": np}
        try:
            exec(case["code"], ns)
            res = value_line(ns["out"])
        except Exception as e:  # every NumPy error is a result to compare
            res = error_line(e)
        out.write("%d\t%s\n" % (case["id"], res))
        out.flush()


if __name__ == "__main__":
    main()
