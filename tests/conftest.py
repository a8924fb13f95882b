"""Fixtures shared by several test files (the notebook hooks are in ../conftest.py).

torch._dynamo is imported here, before any test runs: when first imported (torchvision
imports it) it reads attributes of torch.backends.mps.is_available, which the Apple
silicon tests replace with a fake; in a random order that import could fall inside one.
"""

import contextlib
import os

import pytest
import torch
import torch._dynamo  # noqa: F401
from ddp_helpers.procs import new_tag, wait_gone
from ddp_helpers.train_ddp import load_script_module, reference_run

from d2lgpu.checks.ch01_devices import fake_gpus


@pytest.fixture(autouse=True)
def _working_directory_kept():
    """A test that leaves the working directory elsewhere fails by name. The ones after it in
    the same process would read the wrong pyproject.toml (mutmut does on import) and start
    ``python -c`` where a ``d2lgpu/`` of the test's own shadows the package."""
    before = os.getcwd()
    yield
    after = os.getcwd()
    if after != before:
        os.chdir(before)
        pytest.fail(f"the test left the working directory at {after}, not {before}")


@pytest.fixture
def one_thread():
    # Test machines are small and shared: with two busy cores, OpenMP threads
    # waiting on each other made these tests 10x slower than one thread does.
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture
def gpus():
    """``gpus(n)`` makes ``torch.cuda`` and ``torch.accelerator`` report ``n`` GPUs until the
    test ends: the package's ``fake_gpus``, the one used by exercise 01.placement's checker.
    ``gpus(2, T4)`` (a ``GpuProfile`` from ``d2lgpu.checks.ch01_devices``) makes them two T4s:
    name, memory, compute capability, bf16 and peer access too.

    Request it before ``monkeypatch`` when the test also patches these functions by hand."""
    with contextlib.ExitStack() as stack:
        yield lambda n, profile=None: stack.enter_context(fake_gpus(n, profile))


@pytest.fixture
def tag():
    """A mark for the environment of the processes this test starts; none may outlive it."""
    tag = new_tag()
    yield tag
    left = wait_gone(tag, timeout_s=15)
    assert not left, f"processes left behind by the test: {left}"


def _load_per_core() -> float:
    """Processes that wanted each core over the last minute (1.0 where it cannot be read)."""
    try:
        return os.getloadavg()[0] / (os.cpu_count() or 1)
    except (AttributeError, OSError):  # Windows has no load average
        return 1.0


@pytest.fixture
def idle_budget():
    """``idle_budget(s)``: a wall-time budget of ``s`` seconds, set for an idle machine, on
    this one: ``s`` times the processes that wanted each core (the load average per core,
    the larger of the test's start and now, at least 1). A busy machine shares its cores
    out, so what takes 60 s alone takes about 180 s beside two other busy processes per
    core; the budget still fails a step that became slower on an idle machine."""
    at_start = _load_per_core()
    return lambda seconds: seconds * max(1.0, at_start, _load_per_core())


# The DDP script's tests (test_train_ddp*.py) compare runs with these: each is made once per
# session and shared by every pytest-xdist process (ddp_helpers.train_ddp.reference_run).


@pytest.fixture(scope="session")
def ref1(tmp_path_factory):
    """Uninterrupted training of train_ddp.py, 1 process (world size 1), the same global batch."""
    return reference_run(tmp_path_factory, 1)


@pytest.fixture(scope="session")
def ref2(tmp_path_factory):
    """Uninterrupted training of train_ddp.py, 2 processes on one node."""
    return reference_run(tmp_path_factory, 2)


@pytest.fixture(scope="module")
def script():
    """scripts/train_ddp.py imported as a module (its main() does not run), for its helpers."""
    return load_script_module()
