"""A pretend GPU: where tensors would live, and what the host would wait for, on a CPU.

Shared by the simulated GPU (:mod:`d2lgpu.stream_sim`) and the checkers
(:mod:`d2lgpu.checks`), it sits below both: it imports neither.

:class:`DeviceWatch` is a ``TorchFunctionMode`` that follows every tensor the
code under it makes. Tensors handed in with :meth:`DeviceWatch.put`, and everything
computed from them, are *on the device*; a tensor made by a factory
(``torch.eye``, ``torch.empty``, ``torch.tensor``, ...) without
``device=`` is on the CPU. With ``pretend=True`` (a machine without a GPU) the
device tensors say they are on a GPU (``.device``, ``.is_cuda``): ``cuda:0``
unless ``put`` names another, such as ``cuda:1`` for a second pretend GPU.
``device=``, ``.to()`` (a device, or a tensor whose device to take) or
``.cuda()`` naming a GPU makes a tensor on that GPU while the data stays on
the CPU, so the answer runs and computes real values.

It records what would make a GPU wait, or fail:

* ``reads``: host reads of device data (``.item()``, ``float()``, ``.tolist()``,
  ``.cpu()``, ``print``, ``torch.tensor`` of a list of device tensors, a device
  value written into a CPU tensor, ``torch.cuda.synchronize``, ...), each a
  synchronization on a GPU;
* ``raced``: host reads of a copy made with ``.to("cpu", non_blocking=True)`` (or of a view
  of it) before any ``torch.cuda.synchronize`` (:meth:`DeviceWatch.synced`), and operations
  on the CPU that use its values: on a GPU the copy may not have landed, and the read sees
  what the pinned buffer held before;
* ``mixed``: operations that combine a device tensor with a CPU tensor (not a
  0-d one), or tensors on two GPUs, which a GPU refuses; each names where the
  CPU tensor was made. ``.to()`` and autograd (``backward``, ``torch.autograd.grad``,
  which carry each gradient to its tensor's device) are not mixes, but a gradient handed
  to them (``h.backward(grad)``) on another device than its tensor's is, as torch's
  engine refuses it.

Reads of CPU data (a list already copied to the host) are not counted. On a
machine with a GPU (``pretend=False``) the same records are made from the
tensors' real devices.

The tables of torch calls it looks up (which read, make or copy into a tensor, which
gradient autograd is handed for which tensor) are :mod:`d2lgpu._device_calls`.

What it is not: a grader. :func:`d2lgpu.checks._pretend.watching` puts one in
force for a checker.
"""

from __future__ import annotations

import weakref

import torch
from torch.overrides import TorchFunctionMode

from ._device_calls import (
    COPIES,
    FACTORIES,
    NO_VALUES,
    NOT_MIXES,
    READS,
    VIEWS,
    flat,
    gpu,
    handed_gradients,
    no_numpy,
)

__all__ = ["DeviceWatch", "KEPT_FROM_EARLIER", "PRETEND_DEVICE"]

PRETEND_DEVICE = torch.device("cuda", 0)


# What a mix with a tensor a pretend GPU held in an earlier call (``carried``) ends with
KEPT_FROM_EARLIER = ", one of them kept from an earlier call"


class DeviceWatch(TorchFunctionMode):
    """Follow tensors between (pretend) GPUs and the CPU; record reads and mixes."""

    def __init__(self, pretend: bool):
        super().__init__()
        self.pretend = pretend
        self.reads: list[str] = []
        self.read_numel = 0  # how many values those reads moved to the host, in all
        self.mixed: list[str] = []
        self.raced: list[str] = []  # host reads of a copy to the host still under way
        self._in_flight: dict[int, weakref.ref] = {}  # .to("cpu", non_blocking=True)'s copies
        self.carried: dict[int, weakref.ref] = {}  # put on a GPU under an earlier watch
        self._marked: dict[int, tuple[weakref.ref, torch.device]] = {}
        self._origin: dict[int, tuple[weakref.ref, str]] = {}

    # -- which tensors are on the device -------------------------------------------------

    def put(self, t: torch.Tensor, device=PRETEND_DEVICE) -> torch.Tensor:
        """Declare ``t`` on ``device`` (a pretend GPU, ``cuda:0`` unless given); returns it."""
        self._marked[id(t)] = (weakref.ref(t), gpu(device))
        self.carried.pop(id(t), None)  # put here by the caller: not kept by the answer
        return t

    def device_of(self, t) -> torch.device | None:
        """The GPU ``t`` is on (a pretend one, or a real one), or None: the CPU, not a tensor."""
        if not isinstance(t, torch.Tensor):
            return None
        if not self.pretend:
            return None if t.device.type in ("cpu", "meta") else t.device
        entry = self._marked.get(id(t))
        return entry[1] if entry is not None and entry[0]() is t else None

    def _landing(self, t) -> bool:
        """Whether ``t`` is a host copy made with ``non_blocking=True`` that no sync since
        has waited for: on a GPU, its values may not have landed yet."""
        entry = self._in_flight.get(id(t))
        return entry is not None and entry() is t

    @staticmethod
    def _uses(name: str) -> bool:
        """Whether a call on the host named ``name`` uses its tensors' values (a copy of them
        to a GPU, queued behind the copy that lands them, does not race)."""
        return not (name in NO_VALUES | VIEWS | NOT_MIXES or name.endswith("_like"))

    def synced(self) -> None:
        """The host waited for the device: every copy to the host has landed."""
        self._in_flight.clear()

    def on_device(self, t) -> bool:
        return self.device_of(t) is not None

    def origin(self, t) -> str:
        entry = self._origin.get(id(t))
        if entry is not None and entry[0]() is t:
            return entry[1]
        return "a CPU tensor"

    def _mark(self, result, device: torch.device | None, origin: str | None = None):
        for t in flat([result]):
            if isinstance(t, torch.Tensor):
                if device is not None and self.pretend:
                    self.put(t, device)
                elif device is None and origin:
                    self._origin[id(t)] = (weakref.ref(t), origin)
        return result

    # -- the mode ----------------------------------------------------------------------

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = dict(kwargs or {})
        name = getattr(func, "__name__", "")
        if name == "__get__":
            return self._property(func, args, kwargs)
        tensors = [t for t in flat([args, kwargs]) if isinstance(t, torch.Tensor)]
        on = [t for t in tensors if self.on_device(t)]
        target = self._target(name, args, kwargs)
        # A copy to the host reads the device; a factory's device='cpu' (torch.zeros_like(x,
        # device="cpu")) makes a CPU tensor without waiting for x: it is followed below.
        if name in ("cpu", "numpy") or (
            name == "to" and target is not None and target.type == "cpu"
        ):
            was_on = bool(args) and self.on_device(args[0])
            if was_on and self.pretend and name == "numpy":  # as torch refuses a GPU tensor
                raise no_numpy(self.device_of(args[0]))
            if was_on:
                self.reads.append(f".{name}()" if name != "to" else ".to('cpu')")
                self.read_numel += args[0].numel()
            result = func(*args, **kwargs)
            if was_on and self.pretend and result is args[0]:
                result = result.clone()  # a real copy leaves the device tensor where it was
            if was_on and kwargs.get("non_blocking") is True:  # lands later: until a sync
                self._in_flight[id(result)] = weakref.ref(result)
            return self._mark(result, None)
        if name == "__array__" and self.pretend and on:  # np.asarray(x): x.numpy() inside
            raise no_numpy(self.device_of(on[0]))
        landing = any(self._landing(t) for t in tensors)
        if landing and (name in READS or not on and target is None and self._uses(name)):
            self.raced.append(f"{name}()" if not name.startswith("__") else name)
        if name in READS and on:
            self.reads.append(f"{name}()" if not name.startswith("__") else name)
            self.read_numel += sum(t.numel() for t in on)
        elif name in ("tensor", "as_tensor", "asarray") and on and _gathered(args, kwargs):
            self.reads += [f"torch.{name}() of a list of device tensors"] * len(on)
        elif name in COPIES and args and not self.on_device(args[0]) and on:
            self.reads.append(
                f"{name} of a device value into a CPU tensor ({self.origin(args[0])})"
            )
        elif name == "__getitem__" and any(t.dtype == torch.bool for t in on[1:]):
            self.reads.append("indexing with a boolean mask")
        elif on and name not in COPIES | NOT_MIXES | {"__getitem__"}:
            self._check_mix(name, tensors, on)
        self._check_gradients(name, args, kwargs)
        if target is not None and target.type == "cuda":
            return self._to_gpu(func, name, args, kwargs, gpu(target))
        result = func(*args, **kwargs)
        if name == "grad":  # each gradient is on its input's device
            # torch.autograd.grad hands the mode (outputs, inputs) as tuples, one result an input
            for g, t in zip(result, args[1], strict=True):
                self._mark(g, self.device_of(t))
            return result
        if name in FACTORIES or name.startswith("new_") or name.endswith("_like"):
            if "device" in kwargs or (name in FACTORIES and not on):
                made = f".{name}" if name.startswith("new_") else f"torch.{name}"  # x.new_zeros
                shown = (
                    f"{made}(...) without device="
                    if "device" not in kwargs
                    else f"{made}(..., device='cpu')"
                )
                return self._mark(result, None, shown)
        if name in COPIES:
            return result
        if landing and name in VIEWS:  # a view of a copy still landing lands with it
            for t in flat([result]):
                if isinstance(t, torch.Tensor):
                    self._in_flight[id(t)] = weakref.ref(t)
        first_host = next((t for t in tensors if not self.on_device(t)), None)
        return self._mark(
            result,
            self.device_of(on[0]) if on else None,
            self.origin(first_host) if first_host is not None else None,
        )

    def _to_gpu(self, func, name, args, kwargs, target: torch.device):
        """``x.to(gpu)``, ``x.cuda()``, a factory's ``device=gpu``: on the pretend GPU, a
        tensor marked as on ``target``, a new one unless ``x`` is already there (as in torch)."""
        if not self.pretend:
            return func(*args, **kwargs)
        # the tensor copied: x of x.to(gpu) or x.cuda(), t of torch.as_tensor(t, device=gpu)
        src = args[0] if args and isinstance(args[0], torch.Tensor) else None
        if name == "cuda" and src is not None:
            return src if self.device_of(src) == target else self.put(src.clone(), target)
        kwargs, args = self._to_cpu(name, args, kwargs)
        result = func(*args, **kwargs)
        if src is not None and result is src and self.device_of(src) != target:
            result = src.clone()  # a copy to another device is a new tensor
        return self._mark(result, target)

    def _check_mix(self, name: str, tensors: list, on: list) -> None:
        """Record ``name`` as a mix if it got a device tensor and a CPU one (not 0-d), or
        tensors on two GPUs."""
        host = [t for t in tensors if not self.on_device(t) and t.dim() > 0]
        host = [t for t in host if t.device.type == "cpu"]
        gpus = list(dict.fromkeys(str(self.device_of(t)) for t in on))
        kept = any((e := self.carried.get(id(t))) is not None and e() is t for t in on)
        said = KEPT_FROM_EARLIER if kept else ""
        if host:
            shown = "a device tensor" if gpus == ["cuda:0"] else f"a tensor on {gpus[0]}"
            self.mixed.append(f"{name} got {shown} and {self.origin(host[0])}{said}")
        elif len(gpus) > 1:
            self.mixed.append(f"{name} got tensors on {gpus[0]} and on {gpus[1]}{said}")

    def _check_gradients(self, name: str, args, kwargs) -> None:
        """Record a gradient handed to autograd on another device than its tensor's, which
        torch's engine refuses (``expected device cuda:0 but got cuda:1``); a 0-d CPU gradient
        it moves, as a scalar."""
        for t, g in handed_gradients(name, args, kwargs):
            there, here = self.device_of(g), self.device_of(t)
            if there != here and not (there is None and g.dim() == 0):
                self.mixed.append(
                    f"{name} got a gradient on {there or 'cpu'} for a tensor on {here or 'cpu'}"
                )

    def _property(self, func, args, kwargs):
        prop = getattr(func.__self__, "__name__", "")
        obj = args[0] if args else None
        device = self.device_of(obj)
        if self.pretend and device is not None:
            if prop == "device":
                return device
            if prop == "is_cuda":
                return True
            if prop == "is_cpu":
                return False
        result = func(*args, **kwargs)
        if isinstance(result, torch.Tensor):
            self._mark(result, device)
        return result

    def _target(self, name, args, kwargs) -> torch.device | None:
        """The device that ``to``/``cuda``/a factory's ``device=`` names, if any."""
        if name == "cuda":
            device = args[1] if len(args) > 1 else kwargs.get("device")  # x.cuda(1), x.cuda()
            return gpu(
                torch.device("cuda", device) if isinstance(device, int) else device or "cuda"
            )
        if name == "to":
            for a in list(args[1:]) + list(kwargs.values()):
                if isinstance(a, torch.Tensor):
                    return self.device_of(a) or a.device
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
        dtype = None  # a dtype= stays in kwargs
        kwargs.pop("device", None)
        for a in args[1:]:
            if isinstance(a, torch.dtype):
                dtype = a
            elif isinstance(a, torch.Tensor):
                dtype = a.dtype
        return kwargs, [args[0], "cpu"] + ([dtype] if dtype is not None else [])


def _gathered(args, kwargs) -> bool:
    """Whether ``torch.tensor``/``as_tensor``/``asarray`` reads its device data on the host:
    tensors inside a list (their values gathered there), or one tensor sent to the CPU; one
    device tensor made into a tensor on a device is a copy there, or the tensor itself."""
    data = args[0] if args else kwargs.get("data", kwargs.get("obj"))
    device = kwargs.get("device")
    return not isinstance(data, torch.Tensor) or (
        device is not None and torch.device(device).type == "cpu"
    )
