"""Whether a child forked from this process can run autograd's ``backward``, asked of one.

Once this process has started autograd's per-device threads, torch refuses a ``backward``
in any child forked from it ("Unable to handle autograd's threading in combination with
fork-based multiprocessing"). A ``backward`` on a GPU starts them, and so does one run
under a dispatch mode such as ``FakeTensorMode`` with a watch that reads the generators'
states around it (chapter 11's checker does). torch says so nowhere beforehand, so
:func:`forked_backward_works` forks a child that runs one small ``backward`` and exits.

What it is not: the choice of a start method (:func:`d2lgpu._rank_start.start_method`).
"""

from __future__ import annotations

import os
import signal
import time
import warnings

import torch

__all__ = ["forked_backward_works"]

_OK = 0  # the child's exit status where its backward ran


def forked_backward_works(timeout_s: float = 5.0) -> bool:
    """Fork a child that runs ``backward`` on a one-element CPU tensor; True if it ran.

    A child that raises, or does not finish within ``timeout_s`` seconds (a lock another
    thread held at the fork), answers False, and is killed.
    """
    with warnings.catch_warnings():  # Python 3.12 warns of a fork in a threaded process
        warnings.simplefilter("ignore", DeprecationWarning)
        pid = os.fork()
    if pid == 0:  # the child: one backward, then out, without the parent's exit handlers
        status = 1
        try:
            torch.ones(1, requires_grad=True).sum().backward()
            status = _OK
        finally:
            os._exit(status)
    deadline = time.monotonic() + timeout_s
    while True:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status) == _OK
        if time.monotonic() > deadline:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
            return False
        time.sleep(0.002)
