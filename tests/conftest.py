"""Fixtures shared by several test files (the notebook hooks are in ../conftest.py)."""

import pytest
import torch
from ddp_helpers.procs import new_tag, wait_gone


@pytest.fixture
def one_thread():
    # Test machines are small and shared: with two busy cores, OpenMP threads
    # waiting on each other made these tests 10x slower than one thread does.
    before = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(before)


@pytest.fixture
def tag():
    """A mark for the environment of the processes this test starts; none may outlive it."""
    tag = new_tag()
    yield tag
    left = wait_gone(tag, timeout_s=15)
    assert not left, f"processes left behind by the test: {left}"
