"""How much GPU memory a program uses, as PyTorch's caching allocator sees it.

PyTorch keeps freed GPU memory in a cache for reuse, so three numbers matter:

* *allocated*: bytes held by live tensors (``torch.cuda.memory_allocated``);
* *reserved*: bytes the allocator holds from the driver, live or cached
  (``torch.cuda.memory_reserved``); this is what ``nvidia-smi`` shows, plus
  the CUDA context;
* *peak*: the largest *allocated* value since the last reset
  (``torch.cuda.max_memory_allocated``).

:func:`memory_report` reads them; :func:`peak_memory` measures the peak of a
block of code. :func:`saved_for_backward` counts, on any device, the bytes
autograd keeps for the backward pass (what activation checkpointing saves).
On Apple silicon (``mps``) PyTorch reports allocated bytes
(``torch.mps.current_allocated_memory``) and the driver's total
(``torch.mps.driver_allocated_memory``, as *reserved*), but no peak. On a
device without such counters (the CPU) both say so instead of failing. Apart
from :func:`saved_for_backward`, this module does not track CPU memory.
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch.utils._python_dispatch import is_traceable_wrapper_subclass

__all__ = [
    "MemoryReport",
    "memory_report",
    "PeakMemory",
    "peak_memory",
    "SavedTensors",
    "saved_for_backward",
    "format_bytes",
]


@dataclass
class MemoryReport:
    """Allocator counters of one device, in bytes; ``None`` where not available."""

    device: str
    allocated: int | None
    reserved: int | None
    peak: int | None

    @property
    def available(self) -> bool:
        return self.allocated is not None

    def __str__(self) -> str:
        if not self.available:
            return f"{self.device}: allocator counters are not available (CUDA only)"
        peak = format_bytes(self.peak) if self.peak is not None else "not reported on mps"
        return (
            f"{self.device}: allocated {format_bytes(self.allocated)}, "
            f"reserved {format_bytes(self.reserved)}, peak {peak}"
        )


def memory_report(device) -> MemoryReport:
    """Return allocated, reserved and peak bytes on ``device``.

    On ``mps`` the peak is ``None`` (not reported); on the CPU all three are
    ``None`` and ``str()`` says that they are not available.
    """
    device = torch.device(device)
    if device.type == "mps":
        return MemoryReport(
            str(device),
            torch.mps.current_allocated_memory(),
            torch.mps.driver_allocated_memory(),
            None,  # PyTorch keeps no peak counter for mps
        )
    if device.type != "cuda":
        return MemoryReport(str(device), None, None, None)
    return MemoryReport(
        str(device),
        torch.cuda.memory_allocated(device),
        torch.cuda.memory_reserved(device),
        torch.cuda.max_memory_allocated(device),
    )


@dataclass
class PeakMemory:
    """Result of :func:`peak_memory`, filled in when the block ends."""

    device: str
    peak: int | None = None  # highest allocated bytes during the block
    start: int | None = None  # allocated bytes when the block began

    @property
    def available(self) -> bool:
        return self.peak is not None

    @property
    def extra(self) -> int | None:
        """Peak bytes above what was allocated before the block."""
        if self.peak is None:
            return None
        assert self.start is not None  # set with peak, when the block began
        return self.peak - self.start

    def __str__(self) -> str:
        if not self.available and self.device.startswith("mps"):
            return f"{self.device}: peak memory is not available (PyTorch reports no peak on mps)"
        if not self.available:
            return f"{self.device}: peak memory is not available (CUDA only)"
        return (
            f"{self.device}: peak {format_bytes(self.peak)} "
            f"({format_bytes(self.extra)} above the start of the block)"
        )


@contextmanager
def peak_memory(device):
    """Measure the peak allocated CUDA memory of a ``with`` block.

    >>> with peak_memory(device) as mem:
    ...     loss = net(X).sum(); loss.backward()
    >>> print(mem.peak)

    On a device without a peak counter (the CPU, ``mps``) ``mem.available``
    is ``False`` and ``mem.peak`` is ``None``: the block still runs.
    """
    device = torch.device(device)
    result = PeakMemory(str(device))
    if device.type != "cuda":
        yield result
        return
    # The peak counter is per device and global: reset it so that earlier
    # work does not count, and synchronize so queued work is included.
    torch.cuda.synchronize(device)
    torch.cuda.reset_peak_memory_stats(device)
    result.start = torch.cuda.memory_allocated(device)
    try:
        yield result
    finally:
        torch.cuda.synchronize(device)
        result.peak = torch.cuda.max_memory_allocated(device)


@dataclass
class SavedTensors:
    """Result of :func:`saved_for_backward`, filled in when the block ends."""

    bytes: int = 0  # distinct storages saved for backward, parameters excluded
    count: int = 0  # how many distinct storages

    def __str__(self) -> str:
        return f"{format_bytes(self.bytes)} saved for backward in {self.count} storages"


@contextmanager
def saved_for_backward(exclude=()):
    """Count the bytes autograd saves for backward while the block runs, on any device.

    >>> with saved_for_backward(exclude=net.parameters()) as saved:
    ...     loss = net(X).sum()
    >>> print(saved.bytes)

    Every tensor an operation saves for its backward (a ``saved_tensors_hooks``
    pack hook sees it) is counted once per storage, by the storage's size;
    storages of the tensors in ``exclude`` (the parameters, which exist anyway)
    are not. Operations inside ``torch.utils.checkpoint`` save nothing that
    counts here: their own hooks drop what they would save, and only the
    checkpoint's inputs are kept. A selective checkpoint's saved outputs (its
    policy's ``MUST_SAVE``) count only with ``respect_saved_tensors_hooks=True``
    passed to ``checkpoint`` (PyTorch versions that have it); otherwise they
    bypass these hooks. A storage of zero bytes holds no memory and is not
    counted (some PyTorch versions' ``checkpoint`` saves such an empty
    placeholder beside its inputs). A tensor subclass that wraps other tensors
    (a ``DTensor``, whose storage cannot be read) is counted by the storages of
    the tensors it wraps, its local data. The saved tensors are kept alive
    until the block ends, so that no storage is freed and its address reused
    and miscounted.
    """
    skip = set()
    for t in exclude:
        if not isinstance(t, torch.Tensor):
            raise TypeError(
                f"exclude must hold tensors (e.g. net.parameters()), got {type(t).__name__}"
            )
        skip.update(key for key, _, _ in _storages(t))
    seen: dict = {}

    def pack(t):
        for key, holder, nbytes in _storages(t):
            if nbytes and key not in skip and key not in seen:
                seen[key] = (holder, nbytes)
        return t

    result = SavedTensors()
    try:
        with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
            yield result
    finally:
        result.bytes = sum(n for _, n in seen.values())
        result.count = len(seen)
        seen.clear()


def _storages(t):
    """(key, tensor, bytes) of each storage that holds t's data: its own storage, or, for a
    tensor subclass that wraps others (a DTensor), those of the tensors it wraps."""
    if is_traceable_wrapper_subclass(t):
        names, _ = t.__tensor_flatten__()
        return [found for name in names for found in _storages(getattr(t, name))]
    storage = t.untyped_storage()
    return [((t.device, storage.data_ptr()), t, storage.nbytes())]


def format_bytes(n: int | None) -> str:
    """Format a byte count in binary units (KiB, MiB, GiB)."""
    if n is None:
        return "n/a"
    value = float(n)
    for unit in ("B", "KiB", "MiB"):
        if abs(value) < 1024:
            return f"{value:.0f} {unit}" if unit == "B" else f"{value:.1f} {unit}"
        value /= 1024
    return f"{value:.1f} GiB"
