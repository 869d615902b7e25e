"""Every notebook in notebooks/ runs headless through nbclient without an error."""
import pathlib

import nbformat
import pytest
from nbclient import NotebookClient

ROOT = pathlib.Path(__file__).resolve().parents[2]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs(path, tmp_path):
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(
        nb,
        kernel_name="gcalc",
        timeout=120,
        resources={"metadata": {"path": str(tmp_path)}},
    )
    client.execute()
    for cell in nb.cells:
        if cell.cell_type == "code":
            for out in cell.get("outputs", []):
                assert out.get("output_type") != "error", (path.name, cell.source)


def test_there_is_a_notebook():
    assert NOTEBOOKS, "notebooks/ has no notebook"
