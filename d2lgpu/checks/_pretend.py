"""The checkers' pretend GPU: :func:`watching`, a device watch in force for one answer.

The watch itself lives in :mod:`d2lgpu._device_watch`, below both the checkers
and the simulated GPU of :mod:`d2lgpu.stream_sim`. This module adds what only
the checkers need: ``torch.cuda.synchronize`` recorded as a host read.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch

from .._device_watch import DeviceWatch
from ._kit import patched

__all__ = ["watching"]


@contextmanager
def watching(pretend: bool):
    """A :class:`DeviceWatch` in force, with ``torch.cuda.synchronize`` recorded as a read."""
    watch = DeviceWatch(pretend)
    saved = torch.cuda.synchronize

    def synchronize(*args, **kwargs):
        watch.reads.append("torch.cuda.synchronize()")
        if not pretend:
            saved(*args, **kwargs)

    with patched((torch.cuda, "synchronize", synchronize)), watch:
        yield watch
