"""Small helpers shared by the checkers."""

from __future__ import annotations

import functools

import torch

__all__ = ["one_cpu_thread"]


def one_cpu_thread(fn):
    """Run a checker with one CPU thread, then restore the learner's setting.

    The checkers' problems are tiny (100 x 100 matrices, small MLPs): several
    threads only add synchronization, and on a busy machine spinning threads
    can make such code 10-50x slower.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        threads = torch.get_num_threads()
        torch.set_num_threads(1)
        try:
            return fn(*args, **kwargs)
        finally:
            torch.set_num_threads(threads)

    return wrapper
