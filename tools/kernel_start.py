"""A Jupyter kernel that died before it answered is started again, with fresh ports.

jupyter_client picks a kernel's five ports by binding port 0 and closing those sockets;
the kernel binds them a second or more later, after its own imports. Meanwhile another
process on the machine (a torchrun rendezvous, a gloo rank, another kernel: the suite
starts hundreds) can take one of those ports. The kernel then exits with ZMQError
"Address already in use", and its starter sees only "Kernel died before replying to
kernel_info" (jupyter_client issue 154). That is the machine's doing, not the notebook's:
nbval (the root ``conftest.py``), ``tools/make_outputs.py`` and the tests that run
notebooks with nbclient start such a kernel again, up to :data:`TRIES` times in all, each
time on new ports: nbval through :func:`retrying`, the others through this module's
``NotebookClient``.

Only that error is tried again: a kernel that dies at every start (a broken environment,
a kernel spec that cannot run) still fails, after its last try, with the same error, and
any error after the kernel answered (a cell that fails, a kernel that dies in a cell)
is raised at once.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TypeVar

import nbclient
from nbclient.util import run_sync

DIED = "Kernel died before replying to kernel_info"  # jupyter_client's own words
TRIES = 3

T = TypeVar("T")


def died_before_answering(error: BaseException) -> bool:
    """Whether ``error`` says that a kernel exited before it answered its first request."""
    return isinstance(error, RuntimeError) and DIED in str(error)


def _give_up_or_say_again(error: RuntimeError, attempt: int, tries: int) -> None:
    """Raise ``error`` on the last try or when it is not a kernel that died before it
    answered; otherwise say that the kernel is started again."""
    if attempt == tries or not died_before_answering(error):
        raise error
    print(
        f"a kernel died before it answered (try {attempt} of {tries}; most likely another "
        "process took one of its ports): starting it again",
        file=sys.stderr,
    )


def retrying(start: Callable[..., T], tries: int = TRIES) -> Callable[..., T]:
    """``start`` (which starts a kernel and waits until it answers) called again, with the
    same arguments, each time the kernel died before it answered; at most ``tries`` calls."""
    if tries < 1:
        raise ValueError(f"tries must be at least 1, got {tries!r}")

    @functools.wraps(start)
    def start_again(*args, **kwargs):
        for attempt in range(1, tries + 1):
            try:
                return start(*args, **kwargs)
            except RuntimeError as error:
                _give_up_or_say_again(error, attempt, tries)
        raise AssertionError("unreachable: the last try returns or raises")

    return start_again


class NotebookClient(nbclient.NotebookClient):
    """nbclient's ``NotebookClient``, whose kernel, if it died before it answered, is
    started again on new ports (a new kernel manager), at most :data:`TRIES` times.

    Such a kernel ran no cell, so the notebook is as it was. ``execute()`` and
    ``setup_kernel()`` both start their kernel through the methods below."""

    async def async_start_new_kernel(self, **kwargs):
        self._start_kwargs = kwargs  # for a new start: the same cwd, env, ...
        return await super().async_start_new_kernel(**kwargs)

    async def async_start_new_kernel_client(self):
        for attempt in range(1, TRIES + 1):
            try:
                return await super().async_start_new_kernel_client()
            except RuntimeError as error:
                _give_up_or_say_again(error, attempt, TRIES)
            # nbclient has shut that kernel down and let go of its manager
            self.km = self.create_kernel_manager()
            await super().async_start_new_kernel(**getattr(self, "_start_kwargs", {}))
        raise AssertionError("unreachable: the last try returns or raises")

    # setup_kernel() calls these; nbclient made them of its own methods, not of these
    start_new_kernel = run_sync(async_start_new_kernel)
    start_new_kernel_client = run_sync(async_start_new_kernel_client)
