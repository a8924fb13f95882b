"""The order `make check` hands tests to its pytest-xdist processes: the longest first.

A pytest plugin (the Makefile passes ``-p tests.scheduling``); it changes the order only,
never which tests run. On the 2-core machine the suite's wall time is set by its last
minutes: a one-minute test drawn last by the random order keeps one process busy while
the other has nothing left. So, after pytest-randomly has shuffled the unit tests (its
hook runs first), they are sorted stably, the shuffle kept within each group:

1. the tests of :data:`LONGEST` (what took longest in ``--durations`` on that machine),
   in its order;
2. the other tests marked ``slow`` (another process: torchrun, a kernel, a fresh Python);
3. the rest.

With ``--maxschedchunk=1`` (the Makefile's ``UNIT_FLAGS``) xdist then hands the tests
out a few at a time as each process frees up, instead of a quarter of the suite at once.

The notebooks (nbval, one file per process) go costliest file first
(:data:`LONGEST_NOTEBOOKS`), their cells kept in order; the other notebooks follow in
their own order. Both lists are hints: a name that no longer exists is ignored.
"""

from __future__ import annotations

import pytest

# Unit tests, costliest first: a prefix of their node id (a file, or a file and a test).
LONGEST = [
    "tests/test_gpu_cell_outputs.py::",
    "tests/test_colab_install.py::test_the_set_up_cell_installs",
    "tests/test_colab_install.py::",
    "tests/test_browser.py::",
    "tests/test_ranks.py::test_a_script_that_starts_ranks_at_its_top_level",
    "tests/test_site.py::test_the_glossary_is_a_page",  # the first to ask makes the book
    "tests/test_ranks.py::test_after_autograd_on_a_fake_device",
    "tests/test_train_ddp_faults.py::",
    "tests/test_train_ddp.py::",
    "tests/test_checks_ch07.py::",
    "tests/test_checks_ch05.py::",
    "tests/test_launcher.py::",
    "tests/test_lab.py::",
    "tests/test_site.py::",
    "tests/test_exercises.py::",
    "tests/test_lock.py::",
]
# Notebooks, costliest first.
LONGEST_NOTEBOOKS = [
    "notebooks/11_planning.ipynb",
    "notebooks/05_ddp.ipynb",
    "notebooks/03_networks.ipynb",
    "notebooks/10_inside_ddp.ipynb",
    "solutions/05_ddp.ipynb",
    "notebooks/06_performance.ipynb",
    "notebooks/09_model_parallel.ipynb",
    "notebooks/01_devices.ipynb",
    "notebooks/02_tensors.ipynb",
]


def unit_rank(nodeid: str, slow: bool) -> int:
    """Where a unit test goes: its index in :data:`LONGEST`, then the slow ones, then the rest."""
    for rank, prefix in enumerate(LONGEST):
        if nodeid.startswith(prefix):
            return rank
    return len(LONGEST) + (0 if slow else 1)


def notebook_rank(path: str) -> int:
    """Where a notebook's cells go: its index in :data:`LONGEST_NOTEBOOKS`, else after them."""
    for rank, name in enumerate(LONGEST_NOTEBOOKS):
        if path.endswith(name):
            return rank
    return len(LONGEST_NOTEBOOKS)


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    # sorted() is stable: the random order within a group, and a notebook's cells, are kept
    def rank(item):
        if getattr(item, "cell", None) is not None:  # an nbval cell
            return notebook_rank(item.nodeid.split("::")[0])
        return unit_rank(item.nodeid, item.get_closest_marker("slow") is not None)

    items[:] = sorted(items, key=rank)
