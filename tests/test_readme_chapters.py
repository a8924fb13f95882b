"""The README's chapter table counts each notebook's GPU-only cells as the notebooks tag them,
and its Colab and Kaggle links are the ones d2lgpu.links makes."""

import re
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).resolve().parents[1]
ROW = re.compile(
    r"^\| \[`(notebooks/\d\d_\w+\.ipynb)`\]\(notebooks/\d\d_\w+\.ipynb\) \|.*\| ([^|]*) \| [^|]* \|$"
)


def table_rows() -> dict[str, str]:
    """{notebook: its "GPU needed?" cell} for every row of the README's chapter table."""
    rows = {}
    for line in (ROOT / "README.md").read_text().splitlines():
        match = ROW.match(line)
        if match:
            rows[match.group(1)] = match.group(2)
    return rows


def counted(text: str, pattern: str) -> int:
    match = re.search(pattern, text)
    return int(match.group(1)) if match else 0


def tagged(path: Path, tag: str) -> int:
    cells = nbformat.read(path, as_version=4).cells
    return sum(tag in cell.get("metadata", {}).get("tags", []) for cell in cells)


def test_the_table_has_a_row_for_every_chapter():
    assert sorted(table_rows()) == sorted(
        p.relative_to(ROOT).as_posix() for p in (ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")
    )


@pytest.mark.parametrize("notebook", sorted(table_rows()))
def test_the_gpu_only_cell_counts_are_the_notebooks_tags(notebook):
    text = table_rows()[notebook]
    one_gpu = counted(text, r"(\d+) GPU-only (?:timing )?cells?")
    two_gpus = counted(text, r"(\d+) (?:cells? )?needs? 2 GPUs")
    path = ROOT / notebook
    assert (one_gpu, two_gpus) == (tagged(path, "requires-gpu"), tagged(path, "requires-2-gpus")), (
        f"README's chapter table says {text!r} for {notebook}"
    )


def test_the_colab_and_kaggle_links_are_made_from_the_configured_repository():
    # The README types its launch links; d2lgpu.links makes them from pyproject.toml's URL.
    from d2lgpu import links

    text = (ROOT / "README.md").read_text()
    for notebook in sorted((ROOT / "notebooks").glob("[0-9][0-9]_*.ipynb")):
        chapter, exercise = f"notebooks/{notebook.name}", f"exercises/{notebook.name}"
        row = (
            f"| `{notebook.stem}` | [Colab]({links.colab_url(chapter)}) · "
            f"[Kaggle]({links.kaggle_url(chapter)}) | [Colab]({links.colab_url(exercise)}) · "
            f"[Kaggle]({links.kaggle_url(exercise)}) |"
        )
        assert row in text.splitlines(), f"README's launch row for {notebook.stem} is not {row}"
