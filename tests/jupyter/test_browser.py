"""JupyterLab 4 in a real browser (Debian's Chromium driven by Playwright)
with the gcalc kernel and the JupyterLab extension `gcalc jupyter install`
wrote: a notebook runs; gcalc is highlighted as gcalc (keywords, constants,
builtins, strings, comments, numbers, definitions); Tab after
`zeros((2,2)).` opens a completion popup with type labels; a plot shows
inline; a small array's caption stays on one line; a progress bar is drawn
once and ends full; `sigmoid?` shows its help page.

Screenshots go to GCALC_SCREENSHOTS when it is set. Without Chromium the test
skips (saying so), unless GCALC_REQUIRE_BROWSER=1 (CI), when it fails.
"""
import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid

import pytest

CHROMIUM = os.environ.get("GCALC_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHOTS = os.environ.get("GCALC_SCREENSHOTS")
TIMEOUT_MS = 60_000

CELLS = [
    'fn sqr(x) = x * x  # a comment\nok = true\ny = exp(arange(3.0))\ns = "text"\nsqr(y)',
    'plot(arange(10), arange(10) ** 2, title="squares")',
    "zeros((2, 3))",
    "",
    "t = 0\nfor i in progress(range(300000)) { t += i }\nt",
    "sigmoid?",
]


def notebook():
    return {
        "cells": [
            {
                "cell_type": "code",
                "execution_count": None,
                "id": f"cell-{i}",
                "metadata": {},
                "outputs": [],
                "source": src,
            }
            for i, src in enumerate(CELLS)
        ],
        "metadata": {
            "kernelspec": {"display_name": "gcalc", "language": "gcalc", "name": "gcalc"},
            "language_info": {"name": "gcalc"},
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def need_browser():
    missing = None
    if not os.path.exists(CHROMIUM):
        missing = f"no Chromium at {CHROMIUM} (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            missing = "the playwright package is not installed"
    if missing:
        if os.environ.get("GCALC_REQUIRE_BROWSER") == "1":
            pytest.fail(missing)
        pytest.skip(missing)


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    need_browser()
    root = tmp_path_factory.mktemp("lab")
    (root / "gcalc.ipynb").write_text(json.dumps(notebook()))
    port, token = free_port(), uuid.uuid4().hex
    # No "get notified about Jupyter news?" toast over the notebook.
    config = tmp_path_factory.mktemp("config")
    (config / "labconfig").mkdir()
    (config / "labconfig" / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    log = open(root / "jupyterlab.log", "wb")
    proc = subprocess.Popen(
        [
            sys.executable, "-m", "jupyterlab", "--no-browser",
            "--ip=127.0.0.1", f"--port={port}", f"--ServerApp.root_dir={root}",
            f"--IdentityProvider.token={token}",
            "--allow-root",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.expose_app_in_browser=True",
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        env={**os.environ, "JUPYTER_CONFIG_DIR": str(config)},
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.time() + 60
    while True:
        try:
            with urllib.request.urlopen(f"{url}/api/status?token={token}", timeout=2):
                break
        except OSError:
            if proc.poll() is not None or time.time() > deadline:
                log.close()
                pytest.fail("JupyterLab did not start:\n" + (root / "jupyterlab.log").read_text())
            time.sleep(0.3)
    try:
        yield url, token, root
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def shot(page, name):
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"))


def cell(page, i):
    return page.locator(".jp-Notebook .jp-Cell").nth(i)


def resolved_color(page, var):
    """The colour a CSS variable resolves to, as getComputedStyle gives colours."""
    return page.evaluate(
        """v => { const p = document.createElement('span');
                  p.style.color = `var(${v})`; document.body.appendChild(p);
                  const c = getComputedStyle(p).color; p.remove(); return c; }""",
        var,
    )


def token_color(page, cls, text):
    el = cell(page, 0).locator(f".cm-content span.{cls}", has_text=text).first
    el.wait_for(timeout=TIMEOUT_MS)
    assert el.inner_text() == text
    return el.evaluate("e => getComputedStyle(e).color")


def test_notebook_in_jupyterlab(lab):
    from playwright.sync_api import sync_playwright

    url, token, root = lab
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport={"width": 1280, "height": 900})
            page.set_default_timeout(TIMEOUT_MS)
            page.goto(f"{url}/lab/tree/gcalc.ipynb?token={token}")
            page.wait_for_function(
                """() => { const w = window.jupyterapp?.shell?.currentWidget;
                           const k = w?.sessionContext?.session?.kernel;
                           return k && k.name === 'gcalc' && k.status === 'idle'; }"""
            )
            # The notebook's editors use the gcalc language of the extension.
            mime = page.evaluate("window.jupyterapp.shell.currentWidget.content.codeMimetype")
            assert mime == "text/x-gcalc", mime

            # Highlighting, by the extension's classes and by colour.
            keyword = resolved_color(page, "--jp-mirror-editor-keyword-color")
            builtin = resolved_color(page, "--jp-mirror-editor-builtin-color")
            assert token_color(page, "cm-gcalc-keyword", "fn") == keyword
            assert token_color(page, "cm-gcalc-bool", "true") == keyword
            assert token_color(page, "cm-gcalc-builtin", "exp") == builtin
            assert token_color(page, "cm-gcalc-builtin", "arange") == builtin
            for cls, text in [
                ("cm-gcalc-def", "sqr"),
                ("cm-gcalc-comment", "# a comment"),
                ("cm-gcalc-string", '"text"'),
                ("cm-gcalc-number", "3.0"),
            ]:
                token_color(page, cls, text)
            # A user's name is not a builtin (`square` is one since issue 17).
            assert cell(page, 0).locator("span.cm-gcalc-builtin", has_text="sqr").count() == 0

            page.evaluate("window.jupyterapp.commands.execute('notebook:run-all-cells')")
            img = cell(page, 1).locator(".jp-OutputArea-output img")
            img.wait_for()
            page.wait_for_function(
                "e => e.complete && e.naturalWidth > 100", arg=img.element_handle()
            )
            assert "[ 1.         7.3890557 54.598152 ]" in cell(page, 0).locator(".jp-OutputArea").inner_text()
            shot(page, "1-notebook-run")

            # One progress bar (the browser's), full, its numbers on its line.
            out = cell(page, 4).locator(".jp-OutputArea")
            page.wait_for_function(
                "e => e.innerText.includes('44999850000')", arg=out.element_handle()
            )
            bars = out.locator("progress")
            assert bars.count() == 1
            assert bars.first.get_attribute("max") == "300000"
            assert bars.first.get_attribute("value") == "300000"
            text = out.inner_text()
            assert "300000/300000 100.0%" in text and "[#" not in text, text
            # help as `name?`: the page of the op, with its example.
            helped = cell(page, 5).locator(".jp-OutputArea")
            page.wait_for_function(
                "e => e.innerText.includes('example:')", arg=helped.element_handle()
            )
            assert "SciPy:    scipy.special.expit(x)" in helped.inner_text()
            cell(page, 4).scroll_into_view_if_needed()
            shot(page, "4-progress-and-help")

            # A small array's caption is one line.
            caption = cell(page, 2).locator(".jp-OutputArea-output .gcalc-caption")
            caption.wait_for()
            box = caption.bounding_box()
            line = caption.evaluate("e => parseFloat(getComputedStyle(e).lineHeight) || 20")
            assert box["height"] < 1.6 * line, (box, line)

            # Completion after a call, with type labels.
            cell(page, 3).scroll_into_view_if_needed()
            editor = cell(page, 3).locator(".cm-content")
            editor.click()
            page.keyboard.type("zeros((2,2)).")
            page.keyboard.press("Tab")
            popup = page.locator(".jp-Completer")
            popup.wait_for(state="visible")
            items = popup.locator(".jp-Completer-item")
            items.first.wait_for()
            labels = dict(
                zip(
                    items.locator(".jp-Completer-match").all_inner_texts(),
                    items.locator(".jp-Completer-typeExtended").all_inner_texts(),
                )
            )
            shot(page, "2-completion-popup")
            for name, kind in [("reshape", "method"), ("sum", "method"), ("shape", "property"), ("T", "property")]:
                assert labels.get(name) == kind, labels
            page.keyboard.type("resh")
            page.wait_for_function(
                "() => [...document.querySelectorAll('.jp-Completer-item')].length === 1"
            )
            page.keyboard.press("Enter")
            assert "zeros((2,2)).reshape" in editor.inner_text()
            shot(page, "3-completed")
        finally:
            browser.close()
