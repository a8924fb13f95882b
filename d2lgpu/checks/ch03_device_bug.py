"""Checker ``03.device_bug``: fix a training step with a device mismatch.

The answer is the fixed ``train_step``. The checker runs it with the model on
the ``meta`` device, which computes nothing, so the bug shows on any machine:
most operations refuse a CPU operand next to a meta one, as they would next to
a GPU one. Some do not (``meta @ cpu`` passes, chapter 2), so the checker also
watches every operation and fails a step in which one got both. Then it runs
three real steps on ``try_gpu()`` against a reference.
"""

from __future__ import annotations

import weakref

import torch
import torch.nn.functional as F
from torch import nn
from torch.overrides import TorchFunctionMode

from ._ch03_networks import CLASS_WEIGHTS, make_net, same_params, seeded_net
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_device_bug", "reference_train_step"]


def reference_train_step(net, X, y, opt, device, *, weighted=True, zero_grad=True):
    """The fixed training step: the batch and the class weights on the model's device.

    ``weighted`` and ``zero_grad`` switch off a part, to name a learner's mistake.
    """
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device) if weighted else None
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    if zero_grad:
        opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


def _batch(seed: int, n: int = 16):
    gen = torch.Generator().manual_seed(seed)
    X = torch.randn(n, 4, generator=gen)
    y = torch.randint(0, 3, (n,), generator=gen)
    return X, y


def _names_cuda(value) -> bool:
    if isinstance(value, torch.device):
        return value.type == "cuda"
    return isinstance(value, str) and value.startswith("cuda")


_BY_NAME = (
    "the step uses the GPU by name (.cuda(), device='cuda'), which fails where there is none "
    "and ignores the device it is given: use .to(device)"
)


# Functions that make a tensor from nothing: one made in the step is named as such.
_FACTORIES = set(
    "tensor as_tensor ones zeros full eye arange empty linspace rand randn randint randperm".split()
)
# Operations that copy their other operands into the first one.
_TRANSFERS = ("copy_", "__setitem__")
# Calls that only look at tensors (an attribute; whether one may take the other's data, which
# Module.to_empty asks): no operation mixes its operands there.
_QUERIES = ("__get__", "_has_compatible_shallow_copy_type")


class _Origins(TorchFunctionMode):
    """Label tensors by where they came from; note the first operation mixing meta and CPU."""

    def __init__(self, labels: list[tuple[torch.Tensor, str]]):
        super().__init__()
        self._labels = {id(t): (weakref.ref(t), label) for t, label in labels}
        self.mixed: tuple[str, str, str] | None = None
        self.cuda_by_name = False  # .cuda(), .to("cuda"), device="cuda": not the device given
        self.moved_to: str | None = None  # the first .to() aimed at a device other than meta

    def label(self, t) -> str | None:
        entry = self._labels.get(id(t))
        return entry[1] if entry is not None and entry[0]() is t else None

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        name = getattr(func, "__name__", "")
        flat = [*args, *kwargs.values()]
        flat = [t for v in flat for t in (v if isinstance(v, list | tuple) else [v])]
        tensors = [t for t in flat if isinstance(t, torch.Tensor)]
        if any(_names_cuda(v) for v in flat) or name == "cuda":
            self.cuda_by_name = True
        # (a parameter's .to() is the model moving, which its own hint names)
        if name == "to" and self.moved_to is None and not isinstance(args[0], nn.Parameter):
            target = _target_device([*args[1:], *kwargs.values()])
            if target is not None and target.type != "meta":
                self.moved_to = str(target)
        # A copy into a device tensor is a transfer, which a GPU makes from any device:
        # dst.copy_(cpu_tensor), dst[...] = cpu_tensor.
        transfer = name in _TRANSFERS and tensors and tensors[0].device.type == "meta"
        if name not in _QUERIES and self.mixed is None and not transfer:
            other = [t for t in tensors if t.device.type != "meta" and t.dim() > 0]
            if other and any(t.device.type == "meta" for t in tensors):
                where = "the CPU" if other[0].device.type == "cpu" else str(other[0].device)
                self.mixed = (name, self.label(other[0]) or f"a tensor on {where}", where)
        result = func(*args, **kwargs)
        if isinstance(result, torch.Tensor) and name not in _QUERIES:
            if not tensors and name in _FACTORIES:  # made in the step: how, says the label
                label: str | None = f"torch.{name}(...) made in your step" + _made_on(kwargs)
            else:
                label = next((self.label(t) for t in tensors if self.label(t)), None)
            if label:
                self._labels[id(result)] = (weakref.ref(result), label)
        return result


def _target_device(values) -> torch.device | None:
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


def _made_on(kwargs) -> str:
    """How a factory's ``device=`` placed its tensor, for its label ("" on the model's meta)."""
    if "device" not in kwargs:
        return " without device="
    made_on = _target_device([kwargs["device"]])
    return f" with device={made_on}" if made_on is not None and made_on.type != "meta" else ""


def _moved_elsewhere(origins: _Origins) -> CheckFailed | None:
    """The step moved data with .to() to a device other than the one it is given."""
    if origins.moved_to is None:
        return None
    return CheckFailed(
        f"the step moves tensors to {origins.moved_to} (.to()), not to the device it is "
        "given: use .to(device) with the argument device; a device chosen inside the step "
        "(torch.cuda.is_available(), 'cpu', X.device before X is moved) ignores it"
    )


def _mismatch_hint(error: RuntimeError, origins: _Origins) -> CheckFailed | None:
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
        return CheckFailed(_BY_NAME)
    # meta: "... is not on the expected device meta!"; a GPU: "... on the same device, but ..."
    if "expected device" not in message and "on the same device" not in message:
        return None
    return _moved_elsewhere(origins) or _mixed_hint(origins, f" (PyTorch said: {message})")


def _mixed_hint(origins: _Origins, said: str = "") -> CheckFailed:
    """Name the tensor left off the model's device, and the operation that got both."""
    op, what, where = origins.mixed or ("an operation", "a CPU tensor", "the CPU")
    if what.startswith("the batch"):
        still = "still on the CPU" if where == "the CPU" else f"on {where}"
        return CheckFailed(
            f"{what} is {still} when {op} uses it with the model on the device: "
            f"move X and y to device at the start of the step, with to(){said}"
        )
    made_on = what.partition(" with device=")[2]
    fix = (
        f"it was made with device={made_on}: pass the device the step is given (X.device is "
        "the CPU until X is moved)"
        if made_on
        else "create it on the device (the device= argument of the function that makes it)"
    )
    return CheckFailed(
        f"{what} stays on {where} while the model is on the device ({op} got both): " + fix + said
    )


def _on_meta(step, data_on_meta: bool):
    net = make_net().to("meta")
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    X, y = _batch(0)
    if data_on_meta:
        X, y = X.to("meta"), y.to("meta")
    origins = _Origins([(X, "the batch X"), (y, "the batch y")])
    try:
        with origins:
            loss = step(net, X, y, opt, torch.device("meta"))
    except NotImplementedError as error:
        if "meta" not in str(error).lower():
            raise  # the learner's stub: not attempted yet
        if origins.cuda_by_name:  # with a GPU, copying a meta tensor to it fails this way
            raise CheckFailed(_BY_NAME) from None
        raise _moved_elsewhere(origins) or CheckFailed(
            "the step copies a tensor from the model's device to the CPU (.cpu(), "
            ".to('cpu'), .numpy(), or the model itself): keep the model on its device and "
            "move the data to it"
        ) from None
    except RuntimeError as error:
        hint = _mismatch_hint(error, origins)
        if hint is None:
            raise
        raise hint from None
    if origins.cuda_by_name:  # ran, on a GPU machine, but not on the device it was given
        raise CheckFailed(_BY_NAME)
    if origins.mixed is not None:
        # An operation that let a CPU operand through on meta (matmul does): a GPU would not.
        raise CheckFailed(
            _mixed_hint(origins).hint
            + "; the meta device let it through, a GPU would raise a device-mismatch error"
        )
    moved = {str(p.device) for p in net.parameters()} - {"meta"}
    if moved:
        raise CheckFailed(
            f"the step moved the model to {', '.join(sorted(moved))}: keep the model where it "
            "is and move the data to it"
        )
    if not isinstance(loss, torch.Tensor):
        raise CheckFailed(
            f"train_step returned {type(loss).__name__ if loss is not None else 'None'}: "
            "return the loss as a tensor, loss.detach(), as the given step does"
        )
    return loss


def _record_steps(opt) -> list[bool]:
    """Wrap ``opt.step``: the returned list gets, per call, whether any gradient was non-zero."""
    stepped_with: list[bool] = []
    step = opt.step

    def recorded_step(*args, **kwargs):
        grads = [p.grad for group in opt.param_groups for p in group["params"]]
        stepped_with.append(any(g is not None and bool(g.any()) for g in grads))
        return step(*args, **kwargs)

    opt.step = recorded_step
    return stepped_with


def check_device_bug(answer, passed):
    """The fixed ``train_step``: no CPU leftovers (meta device), then two real steps."""
    if not callable(answer):
        raise CheckFailed("pass the fixed function: check('03.device_bug', train_step)")
    one_cpu_thread(_check_device_bug)(answer, passed)


def _check_device_bug(answer, passed):
    from ..devices import try_gpu

    _on_meta(answer, data_on_meta=True)
    passed.append(
        "tensors made inside the step live on the model's device (checked with the model on "
        "the meta device, every operation watched for a CPU operand)"
    )
    _on_meta(answer, data_on_meta=False)
    passed.append("a batch that arrives on the CPU is moved to the model's device")
    passed.append("the model stays on its device")

    device = try_gpu()
    variants = {
        "": {},
        "the class weights are missing: keep weight=class_weights in F.cross_entropy": {
            "weighted": False
        },
        "the gradients of the previous step were not cleared: keep opt.zero_grad() before "
        "loss.backward()": {"zero_grad": False},
    }
    nets = {k: seeded_net(4).to(device) for k in [*variants, "answer"]}
    opts = {k: torch.optim.SGD(n.parameters(), lr=0.05, momentum=0.9) for k, n in nets.items()}
    stepped_with = _record_steps(opts["answer"])
    for seed in (1, 2, 3):
        X, y = _batch(seed)
        for key, options in variants.items():
            reference_train_step(nets[key], X, y, opts[key], device, **options)
        got = answer(nets["answer"], X, y, opts["answer"], device)
        if not isinstance(got, torch.Tensor) or got.numel() != 1:
            raise CheckFailed(
                f"train_step returned {type(got).__name__}"
                + (f" of shape {tuple(got.shape)}" if isinstance(got, torch.Tensor) else "")
                + ": return the loss as a 0-d tensor, loss.detach()"
            )
    if not same_params(nets["answer"], nets[""], close=True):
        if not stepped_with:
            raise CheckFailed(
                "after three steps the parameters differ from the reference: opt.step() was "
                "never called on the optimizer you are given. Keep opt.step() after "
                "loss.backward(), with the opt passed in (a new optimizer made inside the "
                "step starts from scratch every time)"
            )
        if not any(stepped_with):
            raise CheckFailed(
                "after three steps the parameters differ from the reference: every "
                "opt.step() found the gradients zero or None, so opt.zero_grad() ran between "
                "loss.backward() and opt.step() and cleared what the step needed. Call "
                "opt.zero_grad() before loss.backward() (or after opt.step())"
            )
        hint = next(
            (h for h in variants if h and same_params(nets["answer"], nets[h], close=True)),
            "use the optimizer you are given (opt), and keep the class weights "
            f"{list(CLASS_WEIGHTS)}, the cross-entropy loss, opt.zero_grad(), loss.backward() "
            "and opt.step(); only change where tensors live",
        )
        raise CheckFailed(f"after three steps the parameters differ from the reference: {hint}")
    passed.append(
        "three steps on try_gpu() match the reference step (with the optimizer given, "
        "SGD with momentum)"
    )
