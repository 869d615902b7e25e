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


def test_language_info_names_the_gcalc_modes(kernel):
    km, kc = kernel
    kc.kernel_info()
    info = kc.get_shell_msg(timeout=20)["content"]["language_info"]
    assert info["codemirror_mode"] == "gcalc"
    assert info["pygments_lexer"] == "gcalc"
    assert info["mimetype"] == "text/x-gcalc"


def test_nbconvert_html_highlights_gcalc(tmp_path):
    """The Pygments lexer `gcalc jupyter install` put into this Python: an
    executed notebook exported to HTML has gcalc's tokens classed."""
    import nbformat
    from nbclient import NotebookClient
    from nbconvert import HTMLExporter

    nb = nbformat.v4.new_notebook()
    nb.cells.append(
        nbformat.v4.new_code_cell('fn twice(x) = 2 * x  # doubled\nok = true\ntwice(exp(1.5))')
    )
    nb.metadata["kernelspec"] = {"name": "gcalc", "display_name": "gcalc", "language": "gcalc"}
    NotebookClient(nb, kernel_name="gcalc", timeout=60).execute()
    assert nb.metadata["language_info"]["pygments_lexer"] == "gcalc"
    html, _ = HTMLExporter().from_notebook_node(nb)
    for token in [
        '<span class="k">fn</span>',
        '<span class="nf">twice</span>',
        '<span class="kc">true</span>',
        '<span class="nb">exp</span>',
        '<span class="c1"># doubled</span>',
        '<span class="mf">1.5</span>',
    ]:
        assert token in html, token


def test_completion_after_a_call_has_types(kernel):
    km, kc = kernel
    run(kc, "x = ones((2, 3))")
    for code, name, kind in [
        ("zeros((2,2)).resh", "reshape", "method"),
        ("x.T.sh", "shape", "property"),
        ("x.sum(axis=0).ite", "item", "method"),
        ("zer", "zeros", "function"),
    ]:
        kc.complete(code, len(code))
        c = kc.get_shell_msg(timeout=20)["content"]
        assert name in c["matches"], (code, c)
        types = c["metadata"]["_jupyter_types_experimental"]
        assert len(types) == len(c["matches"])
        entry = next(t for t in types if t["text"] == name)
        assert entry["type"] == kind, (code, entry)
        assert (entry["start"], entry["end"]) == (c["cursor_start"], c["cursor_end"])


def test_array_html_is_one_layout_with_a_one_line_caption(kernel):
    km, kc = kernel
    for code, caption in [
        ("arange(3)", "&lt;3 int64 @cpu(0)&gt;"),
        ("zeros((2, 3))", "&lt;2x3 float32 @cpu(0)&gt;"),
        ("ones((2, 2, 2))", "&lt;2x2x2 float32 @cpu(0)&gt;"),
    ]:
        _, msgs = run(kc, code)
        html = next(m for m in msgs if m["msg_type"] == "execute_result")["content"]["data"]["text/html"]
        assert html.startswith('<div class="gcalc-array"><pre'), html
        assert f'white-space:nowrap;' in html and html.endswith(f"{caption}</div></div>"), html


def test_ipython_habits_in_cells(kernel):
    km, kc = kernel
    run(kc, "x = arange(4) * 2")
    reply, msgs = run(kc, "x.sum()")
    n = reply["content"]["execution_count"]
    _, msgs = run(kc, f"_ + 1\n")
    assert result_of(msgs) == "13 <scalar int64 @cpu(0)>"
    _, msgs = run(kc, f"_{n} * 10")
    assert result_of(msgs) == "120 <scalar int64 @cpu(0)>"
    _, msgs = run(kc, "exp?")
    out = stdout_of(msgs)
    assert out.startswith("exp(x)") and "NumPy:    np.exp(x)" in out and "example:" in out
    reply, msgs = run(kc, "y = x + 1\n%timeit y @ y\ny.max()")
    assert reply["content"]["status"] == "ok"
    assert re.search(r"per loop \(mean ± std\. dev\. of 7 runs, [\d,]+ loops? each\)", stdout_of(msgs))
    assert result_of(msgs) == "7 <scalar int64 @cpu(0)>"
    _, msgs = run(kc, "%%time\nz = y * 2\nz")
    assert stdout_of(msgs).startswith("Wall time: ")
    assert result_of(msgs).startswith("[ 2  6 10 14]")
    reply, _ = run(kc, "%matplotlib inline")
    assert reply["content"]["status"] == "error"
    assert "IPython magic" in reply["content"]["evalue"]


def test_help_names_real_numpy_functions(kernel):
    """Every `NumPy: np.f(...)` line of the help pages names a function NumPy has."""
    np = pytest.importorskip("numpy")
    km, kc = kernel
    _, msgs = run(kc, "help()")
    names = [l.split()[0] for l in stdout_of(msgs).splitlines()[1:] if l.startswith("  ")]
    assert len(names) > 80
    checked = 0
    for name in names:
        _, msgs = run(kc, f'help("{name}")')
        for line in stdout_of(msgs).splitlines():
            if not line.startswith("NumPy:"):
                continue
            eq = line.split(None, 1)[1]
            found = 0
            for path in re.findall(r"np\.([\w.]+)\(", eq):
                obj = np
                for part in path.split("."):
                    assert hasattr(obj, part), (name, eq)
                    obj = getattr(obj, part)
                found += 1
            for method in re.findall(r"^x\.(\w+)\(", eq):
                assert hasattr(np.ndarray, method), (name, eq)
                found += 1
            assert found, (name, eq)
            checked += 1
    assert checked > 60
