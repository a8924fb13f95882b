"""The 03.device_bug checker's watch: which tensors came from where, on the meta device.

:class:`Origins` labels the batch and what the step computes from it, names a
tensor a factory made in the step, and notes the first operation that got a
meta tensor and a CPU one (``meta @ cpu`` passes on meta, chapter 2; a GPU
refuses it). The hints that name such a tensor are here too. What it is not:
the checker, :mod:`.ch03_device_bug`, which runs the step under it.
"""

from __future__ import annotations

import weakref

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from .._aliases import answer_function, graded_answer
from ._util import CheckFailed

__all__ = [
    "BY_NAME",
    "Origins",
    "made_on",
    "mismatch_hint",
    "mixed_hint",
    "moved_elsewhere",
    "names_cuda",
    "target_device",
]


def names_cuda(value) -> bool:
    if isinstance(value, torch.device):
        return value.type == "cuda"
    return isinstance(value, str) and value.startswith("cuda")


BY_NAME = (
    "the step uses the GPU by name (.cuda(), device='cuda'), which fails where there is none "
    "and ignores the device it is given: use .to(device)"
)


# Functions that make a tensor from nothing: one made in the step is named as such.
_FACTORIES = set(
    "tensor as_tensor ones zeros full eye arange empty linspace rand randn randint randperm".split()
)
# Operations that copy their other operands into the first one.
_TRANSFERS = ("copy_", "__setitem__")
# Operations that copy their first operand to another's device (w.to(logits),
# w.type_as(logits)): a move, which a GPU makes from any device, not a mix.
_MOVES = ("to", "type_as")
# Calls that only look at tensors (an attribute; whether one may take the other's data, which
# Module.to_empty asks): no operation mixes its operands there.
_QUERIES = ("__get__", "_has_compatible_shallow_copy_type")


class Origins(TorchFunctionMode):
    """Label tensors by where they came from; note the first operation mixing meta and CPU."""

    def __init__(self, labels: list[tuple[torch.Tensor, str]]):
        super().__init__()
        self._labels = {id(t): (weakref.ref(t), label) for t, label in labels}
        self.mixed: tuple[str, str, str] | None = None
        self.cuda_by_name = False  # .cuda(), .to("cuda"), device="cuda": not the device given
        self.moved_to: str | None = None  # the first .to() aimed at a device other than meta
        self.used: set[str] = set()  # the labels of the tensors that operations got
        self._moved: dict[int, weakref.ref] = {}  # tensors whose .to() made a copy on meta
        self.mixed_was_moved = False  # the CPU operand of ``mixed`` is one of those
        self.mixed_global = False  # ... or a tensor the answer's module holds (made at import)

    def label(self, t) -> str | None:
        entry = self._labels.get(id(t))
        return entry[1] if entry is not None and entry[0]() is t else None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        flat = [*args, *kwargs.values()]
        flat = [t for v in flat for t in (v if isinstance(v, list | tuple) else [v])]
        tensors = [t for t in flat if isinstance(t, torch.Tensor)]
        if any(names_cuda(v) for v in flat) or name == "cuda":
            self.cuda_by_name = True
        # (a parameter's .to() is the model moving, which its own hint names)
        if name == "to" and self.moved_to is None and not isinstance(args[0], nn.Parameter):
            target = target_device([*args[1:], *kwargs.values()])
            if target is not None and target.type != "meta":
                self.moved_to = str(target)
        if name == "to" and isinstance(args[0], torch.Tensor) and args[0].device.type != "meta":
            self._moved[id(args[0])] = weakref.ref(args[0])
        # A copy into a device tensor is a transfer, which a GPU makes from any device:
        # dst.copy_(cpu_tensor), dst[...] = cpu_tensor.
        transfer = name in _TRANSFERS and tensors and tensors[0].device.type == "meta"
        if name not in _QUERIES:
            self.used.update(filter(None, map(self.label, tensors)))
        if name not in _QUERIES + _MOVES and self.mixed is None and not transfer:
            other = [t for t in tensors if t.device.type != "meta" and t.dim() > 0]
            if other and any(t.device.type == "meta" for t in tensors):
                where = "the CPU" if other[0].device.type == "cpu" else str(other[0].device)
                self.mixed = (name, self.label(other[0]) or f"a tensor on {where}", where)
                self.mixed_global = _held_by_the_answers_module(other[0])
                moved = self._moved.get(id(other[0]))
                self.mixed_was_moved = moved is not None and moved() is other[0]
        result = func(*args, **kwargs)
        if isinstance(result, torch.Tensor) and name not in _QUERIES:
            if not tensors and name in _FACTORIES:  # made in the step: how, says the label
                label: str | None = f"torch.{name}(...) made in your step" + made_on(kwargs)
            else:
                label = next((self.label(t) for t in tensors if self.label(t)), None)
            if label:
                self._labels[id(result)] = (weakref.ref(result), label)
        return result


def _held_by_the_answers_module(t: torch.Tensor) -> bool:
    """Whether the graded answer's module holds ``t``: a global, or in a global dict or list."""
    fn = answer_function(graded_answer())
    module = getattr(fn, "__globals__", {})
    for value in list(module.values()):
        inside = value.values() if isinstance(value, dict) else value
        if value is t or (isinstance(value, dict | list | tuple) and any(v is t for v in inside)):
            return True
    return False


def target_device(values) -> torch.device | None:
    """The device that arguments of ``to()`` or ``device=`` name, if any."""
    for value in values:
        if isinstance(value, torch.Tensor):
            return value.device
        if isinstance(value, torch.device):
            return value
        if isinstance(value, str):
            try:
                return torch.device(value)
            except RuntimeError:
                continue
    return None


def made_on(kwargs) -> str:
    """How a factory's ``device=`` placed its tensor, for its label ("" on the model's meta)."""
    if "device" not in kwargs:
        return " without device="
    made_on = target_device([kwargs["device"]])
    return f" with device={made_on}" if made_on is not None and made_on.type != "meta" else ""


def moved_elsewhere(origins: Origins) -> CheckFailed | None:
    """The step moved data with .to() to a device other than the one it is given."""
    if origins.moved_to is None:
        return None
    return CheckFailed(
        f"the step moves tensors to {origins.moved_to} (.to()), not to the device it is "
        "given: use .to(device) with the argument device; a device chosen inside the step "
        "(torch.cuda.is_available(), 'cpu', X.device before X is moved) ignores it"
    )


def mismatch_hint(error: RuntimeError, origins: Origins) -> CheckFailed | None:
    """What a RuntimeError from the step on the meta device says about the learner's step."""
    message = str(error)
    if "item()" in message or "data-dependent" in message:
        return CheckFailed(
            "the step reads a value on the host (.item(), float(), bool()): return the "
            "loss tensor (loss.detach()) and let the caller read it when needed; on a GPU "
            "every such read waits for the device"
        )
    low = message.lower()
    by_name = ("cuda" in low or "nvidia" in low) and ("driver" in low or "compiled" in low)
    if by_name or origins.cuda_by_name:
        return CheckFailed(BY_NAME)
    # meta: "... is not on the expected device meta!"; a GPU: "... on the same device, but ..."
    if "expected device" not in message and "on the same device" not in message:
        return None
    return moved_elsewhere(origins) or mixed_hint(origins, f" (PyTorch said: {message})")


def mixed_hint(origins: Origins, said: str = "") -> CheckFailed:
    """Name the tensor left off the model's device, and the operation that got both."""
    op, what, where = origins.mixed or ("an operation", "a CPU tensor", "the CPU")
    name = "X" if what == "the batch X" else "y" if what == "the batch y" else "t"
    unassigned = (  # x.to(device) called, and its result not kept
        f"{name}.to(device) was called, but to() returns a copy on the device and leaves the "
        f"tensor it is called on where it was: assign the result ({name} = {name}.to(device))"
    )
    if what.startswith("the batch"):
        still = "still on the CPU" if where == "the CPU" else f"on {where}"
        fix = (
            unassigned
            if origins.mixed_was_moved
            else "move X and y to device at the start of the step, with to()"
        )
        return CheckFailed(
            f"{what} is {still} when {op} uses it with the model on the device: {fix}{said}"
        )
    made_on = what.partition(" with device=")[2]
    fix = (
        unassigned
        if origins.mixed_was_moved
        else f"it was made with device={made_on}: pass the device the step is given (X.device is "
        "the CPU until X is moved)"
        if made_on
        else "create it on the device (the device= argument of the function that makes it)"
        if not getattr(origins, "mixed_global", False)
        else "your module holds it (a module-level tensor, or one cached there), made before "
        "the step ran, at import or in an earlier call, on the CPU. Make it in the step, on "
        "the device it is given (device=device), or move it there in every call"
    )
    return CheckFailed(
        f"{what} stays on {where} while the model is on the device ({op} got both): " + fix + said
    )
