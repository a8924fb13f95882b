"""The parts of :mod:`d2lgpu.stream_sim` that stand in for CUDA: streams, events, and a mode.

* :class:`SimStream` and :class:`SimEvent` replace ``torch.cuda.Stream`` and
  ``torch.cuda.Event`` (defined in :mod:`d2lgpu._sim_streams`, importable from here);
* :class:`StreamMode`, a :class:`~d2lgpu._device_watch.DeviceWatch`, turns
  copies both ways, ``pin_memory``, ``record_stream``, host reads of device
  data, host reads of copies to the host that may not have landed, and
  operations on device tensors into the simulator's records (its copies between
  the host and the device are :class:`~d2lgpu._sim_copies.Copies`');
  :meth:`StreamMode.patched_cuda` swaps ``torch.cuda``'s stream API for these.

What it is not: usable alone; :func:`d2lgpu.stream_sim.simulated_cuda` sets it up.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch

from ._aliases import aliases_rebound, graded_answer
from ._device_calls import flat as _flat
from ._sim_copies import Copies
from ._sim_streams import ACTIVE, SimEvent, SimStream, Wait, names_current_gpu
from .streams import Interval

__all__ = ["SimStream", "SimEvent", "StreamMode", "Wait"]

_VIEWLESS = {"size", "dim", "stride", "numel", "is_contiguous", "data_ptr", "element_size"}


class StreamMode(Copies):
    """Follow device tensors (a pretend GPU) and queue what a GPU would run."""

    def __init__(self, gpu):
        super().__init__(pretend=True)
        self.gpu = gpu

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        name = getattr(func, "__name__", "")
        if name == "copy_" and "other" in kwargs:  # dst.copy_(other=x), torch's keyword
            args = (args[0], kwargs.pop("other"), *args[1:])
        # from here on a copy_ has its source in args[1] (torch refuses a copy_ without one)
        gpu, first = self.gpu, args[0] if args else None
        if gpu._landing and name not in _VIEWLESS:
            to_host = name == "copy_" and self.on_device(args[1])
            for t in _flat([args[1:] if to_host else args, kwargs]):
                if isinstance(t, torch.Tensor):
                    gpu.host_access(t)
        if name == "pin_memory":
            if gpu.is_pinned(first):
                gpu.pin(first, None)  # a call that takes the host no time, kept in host_work
                return first  # as in PyTorch: already pinned, the same tensor
            pinned = first.clone()
            gpu.pin(first, pinned)
            return pinned
        if name == "is_pinned":
            return gpu.is_pinned(first)
        if name == "record_stream":
            stream = args[1] if len(args) > 1 else kwargs.get("s")  # torch names it s
            buf = gpu.buffer(first)
            if buf is not None:
                buf.recorded.add(stream.name)
            return None
        if kwargs.pop("pin_memory", False):
            result = func(*args, **kwargs)
            gpu.host_copy(result, pinned=True)
            t = gpu.host_time  # page-locked memory allocated on the host: noted, of no time
            gpu.host_work.append(Interval(f"host: torch.{name}(..., pin_memory=True)", ".", t, t))
            return result
        if name in ("to", "cuda") and isinstance(first, torch.Tensor) and not self.on_device(first):
            target = self._target(name, args, kwargs)
            if target is not None and target.type == "cuda":
                return self._to_device(name, args, kwargs)
        if name in _FROM_DATA and isinstance(first, torch.Tensor) and not self.on_device(first):
            target = self._target(name, args, kwargs)  # torch.as_tensor(batch, device="cuda")
            if target is not None and target.type == "cuda":  # a copy that never asks non_blocking
                cast = {"dtype": kwargs["dtype"]} if kwargs.get("dtype") is not None else {}
                return self._to_device("to", (first, target), cast)
        if name in ("to", "cpu") and self.on_device(first) and not gpu.quiet:
            target = torch.device("cpu") if name == "cpu" else self._target(name, args, kwargs)
            if target is not None and target.type == "cpu":
                return self._to_host(name, args, kwargs)
        if name == "copy_" and isinstance(args[1], torch.Tensor):
            return self._copy_into(func, types, args, kwargs)
        return self._other(func, types, args, kwargs, name)

    def _other(self, func, types, args, kwargs, name):
        gpu, reads = self.gpu, len(self.reads)
        inputs = [t for t in args if isinstance(t, torch.Tensor)]
        result = super().__torch_function__(func, types, args, kwargs)
        if len(self.reads) > reads:
            if not gpu.quiet:
                gpu.host_wait(dict(gpu.current.follows), self.reads[-1])
            return result
        if isinstance(result, list | tuple) and not gpu.quiet:
            self._views(inputs, result)  # split, chunk, unbind: views of a device tensor
        if gpu.quiet or name in _VIEWLESS or not isinstance(result, torch.Tensor):
            return result
        if not self.on_device(result):
            first = inputs[0] if inputs else None
            if first is not None and result is not first:
                # a view of pinned memory is pinned (a named batch or not); a new tensor is pageable
                gpu.host_copy(result, first, pinned=_shares(first, result) and gpu.is_pinned(first))
            return result
        if name in _MADE:  # (as_tensor of a device tensor returns it: its buffer is kept)
            gpu.buffer(result, new_batch=False)  # allocated on the current stream
            return result
        bufs = [(t, b) for t in inputs if (b := gpu.buffer(t)) is not None]
        shared = [b for t, b in bufs if _shares(t, result)]
        if shared and not name.endswith("_"):
            gpu.buffer(result, alias_of=shared[0])  # a view: the same memory, no kernel
            return result
        if bufs:  # every device tensor made outside a simulated kernel has a buffer
            op = gpu.queue("kernel", name, 0.0)
            for t, b in bufs:
                gpu.access(op, b, write=name.endswith("_") and t is args[0])
            if gpu.buffer(result) is None:  # new device memory the kernel wrote (x.clone())
                gpu.access(op, gpu.buffer(result, new_batch=False), write=True)
        return result

    def _views(self, inputs, results) -> None:
        """Tensors of ``results`` that share a device tensor's memory (``torch.split``,
        ``chunk``, ``unbind`` return several) are views of its buffer: device memory."""
        bufs = [(t, b) for t in inputs if (b := self.gpu.buffer(t)) is not None]
        for out in results:
            if not isinstance(out, torch.Tensor) or self.gpu.buffer(out) is not None:
                continue
            shared = [b for t, b in bufs if _shares(t, out)]
            if shared:
                self.gpu.buffer(out, alias_of=shared[0])

    @contextmanager
    def patched_cuda(self):
        gpu = self.gpu
        fake = {
            "Stream": SimStream,
            "Event": SimEvent,
            "stream": lambda stream=None: stream if stream is not None else _Nothing(),
            "current_stream": lambda device=None: _on(gpu, device, "current_stream", gpu.current),
            "default_stream": lambda device=None: _on(gpu, device, "default_stream", gpu.default),
            "set_stream": lambda stream: gpu.stack.__setitem__(-1, stream),
            "synchronize": lambda device=None: gpu.host_wait(
                _on(gpu, device, "synchronize", gpu.all_streams()), "torch.cuda.synchronize()"
            ),
            # releasing cached blocks first waits for their streams' events, then cudaFree
            # (c10/cuda/CUDACachingAllocator.cpp, release_cached_blocks): a host wait
            "empty_cache": lambda: gpu.host_wait(gpu.all_streams(), "torch.cuda.empty_cache()"),
            "is_available": lambda: True,
            "device_count": lambda: 1,
            "current_device": lambda: 0,
        }
        saved = {k: getattr(torch.cuda, k) for k in fake}
        ACTIVE.append(gpu)
        for k, v in fake.items():
            setattr(torch.cuda, k, v)
        try:  # an answer's own names (from torch.cuda import Stream) meet the fakes too
            with aliases_rebound(graded_answer(), [(torch.cuda, k, v) for k, v in saved.items()]):
                yield
        finally:
            for k, v in saved.items():
                setattr(torch.cuda, k, v)
            ACTIVE.remove(gpu)


# Functions that make a tensor from data: given a host tensor and a GPU, they copy it there
_FROM_DATA = {"tensor", "as_tensor", "asarray"}
# Factories: their result is new device memory, allocated on the current stream; the tensor a
# *_like or new_* factory is given lends only its shape, dtype and device, and is not read.
_MADE = {
    *("empty", "zeros", "ones", "full", "rand", "randn", "randint", "arange", "linspace"),
    *("eye", "tensor", "as_tensor", "empty_strided", "empty_like", "zeros_like", "ones_like"),
    *("full_like", "rand_like", "randn_like", "randint_like", "new_empty", "new_zeros"),
    *("new_ones", "new_full", "new_tensor"),
}


def _on(gpu, device, call: str, value):
    """``value``, once ``torch.cuda.<call>(device)`` is noted if it names the current GPU
    where the run's device is another."""
    names_current_gpu(gpu, device, f"torch.cuda.{call}()")
    return value


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None


def _shares(a: torch.Tensor, b: torch.Tensor) -> bool:
    try:
        return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()
    except RuntimeError:
        return False
