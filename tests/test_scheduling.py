"""tests/scheduling.py: `make check` hands out the longest tests first, and runs every test."""

from pathlib import Path

import scheduling

ROOT = Path(__file__).resolve().parents[1]


def test_every_hint_names_a_file_that_exists():
    for prefix in scheduling.LONGEST:
        assert (ROOT / prefix.split("::")[0]).is_file(), prefix
    for name in scheduling.LONGEST_NOTEBOOKS:
        assert (ROOT / name).is_file(), name


class Item:
    def __init__(self, nodeid, slow=False, cell=None):
        self.nodeid, self.slow, self.cell = nodeid, slow, cell

    def get_closest_marker(self, name):
        return object() if name == "slow" and self.slow else None


def test_the_longest_go_first_then_slow_ones_the_order_kept_within_each_and_none_lost():
    items = [
        Item("tests/test_a.py::test_fast"),
        Item("tests/test_a.py::test_slow", slow=True),
        Item("tests/test_train_ddp.py::test_two"),
        Item("tests/test_b.py::test_fast"),
        Item("tests/test_gpu_cell_outputs.py::test_x", slow=True),
        Item("tests/test_train_ddp.py::test_one"),
    ]
    before = list(items)
    scheduling.pytest_collection_modifyitems(None, items)
    assert [i.nodeid for i in items] == [
        "tests/test_gpu_cell_outputs.py::test_x",
        "tests/test_train_ddp.py::test_two",
        "tests/test_train_ddp.py::test_one",
        "tests/test_a.py::test_slow",
        "tests/test_a.py::test_fast",
        "tests/test_b.py::test_fast",
    ]
    assert sorted(map(id, items)) == sorted(map(id, before))


def test_a_notebooks_cells_stay_in_order_and_the_costliest_notebook_goes_first():
    cells = [Item(f"notebooks/01_devices.ipynb::Cell {n}", cell=n) for n in range(3)]
    cells += [Item(f"notebooks/11_planning.ipynb::Cell {n}", cell=n) for n in range(3)]
    cells += [Item("notebooks/99_new.ipynb::Cell 0", cell=0)]
    scheduling.pytest_collection_modifyitems(None, cells)
    assert [i.nodeid for i in cells] == [
        *(f"notebooks/11_planning.ipynb::Cell {n}" for n in range(3)),
        *(f"notebooks/01_devices.ipynb::Cell {n}" for n in range(3)),
        "notebooks/99_new.ipynb::Cell 0",
    ]
