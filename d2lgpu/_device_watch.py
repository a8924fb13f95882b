"""A pretend GPU: where tensors would live, and what the host would wait for, on a CPU.

Shared by the simulated GPU (:mod:`d2lgpu.stream_sim`) and the checkers
(:mod:`d2lgpu.checks`), it sits below both: it imports neither.

:class:`DeviceWatch` is a ``TorchFunctionMode`` that follows every tensor the
code under it makes. Tensors handed in with :meth:`DeviceWatch.put`, and everything
computed from them, are *on the device*; a tensor made by a factory
(``torch.eye``, ``torch.empty``, ``torch.tensor``, ...) without
``device=`` is on the CPU. With ``pretend=True`` (a machine without a GPU) the
device tensors say they are on ``cuda:0`` (``.device``, ``.is_cuda``), and
``device=`` or ``.to()`` naming a GPU makes a device tensor while the data
stays on the CPU, so the answer runs and computes real values.

It records what would make a GPU wait, or fail:

* ``reads``: host reads of device data (``.item()``, ``float()``, ``.tolist()``,
  ``.cpu()``, ``print``, ``torch.tensor`` of a list of device tensors, a device
  value written into a CPU tensor, ``torch.cuda.synchronize``, ...), each a
  synchronization on a GPU;
* ``mixed``: operations that combine a device tensor with a CPU tensor (not a
  0-d one), which a GPU refuses; each names where the CPU tensor was made.

Reads of CPU data (a list already copied to the host) are not counted. On a
machine with a GPU (``pretend=False``) the same records are made from the
tensors' real devices.

What it is not: a grader. :func:`d2lgpu.checks._pretend.watching` puts one in
force for a checker.
"""

from __future__ import annotations

import weakref

import torch
from torch.overrides import TorchFunctionMode

__all__ = ["DeviceWatch", "PRETEND_DEVICE"]

PRETEND_DEVICE = torch.device("cuda", 0)

_READS = {
    "item",
    "tolist",
    "numpy",
    "__float__",
    "__int__",
    "__bool__",
    "__index__",
    "__complex__",
    "__format__",
    "__repr__",
    "__str__",
    "__array__",
    "allclose",
    "equal",
    "is_nonzero",
    "nonzero",
    "argwhere",
    "masked_select",
    "unique",
    "unique_consecutive",
}
_FACTORIES = {
    "tensor",
    "as_tensor",
    "asarray",
    "from_numpy",
    "eye",
    "zeros",
    "ones",
    "empty",
    "full",
    "arange",
    "range",
    "linspace",
    "logspace",
    "rand",
    "randn",
    "randint",
    "randperm",
    "scalar_tensor",
    "empty_strided",
}
_COPIES = {"__setitem__", "copy_", "index_put_", "index_copy_", "masked_scatter_"}


def _flat(values):
    for v in values:
        if isinstance(v, list | tuple):
            yield from _flat(v)
        elif isinstance(v, dict):
            yield from _flat(list(v.values()))
        else:
            yield v


class DeviceWatch(TorchFunctionMode):
    """Follow tensors between a (pretend) GPU and the CPU; record reads and mixes."""

    def __init__(self, pretend: bool):
        super().__init__()
        self.pretend = pretend
        self.reads: list[str] = []
        self.mixed: list[str] = []
        self._marked: dict[int, weakref.ref] = {}
        self._origin: dict[int, tuple[weakref.ref, str]] = {}

    # -- which tensors are on the device -------------------------------------------------

    def put(self, t: torch.Tensor) -> torch.Tensor:
        """Declare ``t`` on the device; returns it."""
        self._marked[id(t)] = weakref.ref(t)
        return t

    def on_device(self, t) -> bool:
        if not isinstance(t, torch.Tensor):
            return False
        if not self.pretend:
            return t.device.type not in ("cpu", "meta")
        ref = self._marked.get(id(t))
        return ref is not None and ref() is t

    def origin(self, t) -> str:
        entry = self._origin.get(id(t))
        if entry is not None and entry[0]() is t:
            return entry[1]
        return "a CPU tensor"

    def _mark(self, result, on: bool, origin: str | None = None):
        for t in _flat([result]):
            if isinstance(t, torch.Tensor):
                if on and self.pretend:
                    self.put(t)
                elif not on and origin:
                    self._origin[id(t)] = (weakref.ref(t), origin)
        return result

    # -- the mode ----------------------------------------------------------------------

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        name = getattr(func, "__name__", "")
        if name == "__get__":
            return self._property(func, args, kwargs)
        tensors = [t for t in _flat([args, kwargs]) if isinstance(t, torch.Tensor)]
        on = [t for t in tensors if self.on_device(t)]
        target = self._target(name, args, kwargs)
        if name in ("cpu", "numpy") or (target is not None and target.type == "cpu"):
            was_on = bool(args) and self.on_device(args[0])
            if was_on:
                self.reads.append(f".{name}()" if name != "to" else ".to('cpu')")
            result = func(*args, **kwargs)
            if was_on and self.pretend and result is args[0]:
                result = result.clone()  # a real copy leaves the device tensor where it was
            return self._mark(result, False)
        if name in _READS and on:
            self.reads.append(f"{name}()" if not name.startswith("__") else name)
        elif name in ("tensor", "as_tensor", "asarray") and on:
            self.reads += [f"torch.{name}() of a list of device tensors"] * len(on)
        elif name in _COPIES and args and not self.on_device(args[0]) and on:
            self.reads.append(
                f"{name} of a device value into a CPU tensor ({self.origin(args[0])})"
            )
        elif name == "__getitem__" and any(t.dtype == torch.bool for t in on[1:]):
            self.reads.append("indexing with a boolean mask")
        elif on and name not in _COPIES | {"__getitem__"}:
            host = [t for t in tensors if not self.on_device(t) and t.dim() > 0]
            host = [t for t in host if t.device.type == "cpu"]
            if host:
                self.mixed.append(f"{name} got a device tensor and {self.origin(host[0])}")
        if target is not None and target.type == "cuda":
            if name == "cuda":
                return self.put(args[0].clone()) if self.pretend else func(*args, **kwargs)
            if self.pretend:
                kwargs, args = self._to_cpu(name, args, kwargs)
            return self._mark(func(*args, **kwargs), True)
        result = func(*args, **kwargs)
        if name in _FACTORIES or name.startswith("new_") or name.endswith("_like"):
            if "device" in kwargs or (name in _FACTORIES and not on):
                shown = (
                    f"torch.{name}(...) without device="
                    if "device" not in kwargs
                    else (f"torch.{name}(..., device='cpu')")
                )
                return self._mark(result, False, shown)
        if name in _COPIES:
            return result
        first_host = next((t for t in tensors if not self.on_device(t)), None)
        return self._mark(
            result, bool(on), self.origin(first_host) if first_host is not None else None
        )

    def _property(self, func, args, kwargs):
        prop = getattr(func.__self__, "__name__", "")
        obj = args[0] if args else None
        if self.pretend and self.on_device(obj):
            if prop == "device":
                return PRETEND_DEVICE
            if prop == "is_cuda":
                return True
            if prop == "is_cpu":
                return False
        result = func(*args, **kwargs)
        if isinstance(result, torch.Tensor):
            self._mark(result, self.on_device(obj))
        return result

    def _target(self, name, args, kwargs) -> torch.device | None:
        """The device that ``to``/``cuda``/a factory's ``device=`` names, if any."""
        if name == "cuda":
            return PRETEND_DEVICE
        if name == "to":
            for a in list(args[1:]) + list(kwargs.values()):
                if isinstance(a, torch.Tensor):
                    return PRETEND_DEVICE if self.on_device(a) else torch.device("cpu")
                if isinstance(a, str | torch.device | int) and not isinstance(a, bool):
                    try:
                        return torch.device(a)
                    except (RuntimeError, TypeError):
                        continue
            return None
        device = kwargs.get("device")
        if device is None:
            return None
        try:
            return torch.device(device)
        except (RuntimeError, TypeError):
            return None

    def _to_cpu(self, name, args, kwargs):
        """The same call with the GPU replaced by the CPU (the data stays where it is)."""
        if name != "to":
            return {**kwargs, "device": "cpu"}, args
        dtype = kwargs.pop("dtype", None)
        kwargs.pop("device", None)
        for a in args[1:]:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, torch.Tensor):
                dtype = a.dtype
        return kwargs, [args[0], "cpu"] + ([dtype] if dtype is not None else [])
