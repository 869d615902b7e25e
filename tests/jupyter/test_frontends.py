"""What a notebook user sees from the gcalc kernel (issue 23): progress bars
with the right totals drawn once, highlighting metadata, completion with
types, IPython habits (`_`, `name?`, `%timeit`), array HTML."""
import re

import pytest
from conftest import result_of, run, stdout_of

PROGRESS = re.compile(r'<progress value="(\d+)" max="(\d+)"')


def progress_html(msgs):
    """Every HTML state of the cell's progress display, in order."""
    out = []
    for m in msgs:
        if m["msg_type"] in ("display_data", "update_display_data"):
            html = m["content"]["data"].get("text/html", "")
            if "<progress" in html:
                out.append(html)
    return out


@pytest.mark.parametrize(
    "loop,total",
    [
        ("for i in progress(range(200)) { s += i }", 200),
        ("for i in progress(range(10, 70, 3)) { s += i }", 20),
        ("for x in progress([1, 2, 3, 4, 5, 6, 7]) { s += x }", 7),
        ("for r in progress(ones((9, 2))) { s += 1 }", 9),
        ("for i, x in progress(enumerate(arange(12))) { s += i }", 12),
        ("for i, x in enumerate(progress(range(15))) { s += i }", 15),
        ("for a, b in progress(zip(range(30), ones((25, 3)))) { s += a }", 25),
    ],
)
def test_progress_html_totals(kernel, loop, total):
    km, kc = kernel
    reply, msgs = run(kc, "s = 0\n" + loop)
    assert reply["content"]["status"] == "ok"
    states = progress_html(msgs)
    assert states, msgs
    for html in states:
        value, mx = map(int, PROGRESS.search(html).groups())
        assert mx == total, html
        assert value <= total, html
        # One bar: the browser's; no ASCII bar beside it.
        assert "[#" not in html and "#-" not in html and "--]" not in html, html
        assert "white-space:nowrap" in html
    value, _ = map(int, PROGRESS.search(states[-1]).groups())
    assert value == total, states[-1]
    assert f"{total}/{total}" in states[-1]
