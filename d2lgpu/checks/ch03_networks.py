"""Checkers of chapter 3: ``03.parameters`` and ``03.device_bug``.

* ``03.parameters``: the answer is ``(halve_first_layer, save_parameters,
  load_parameters)``. The checker edits, saves and loads a small model on
  ``try_gpu()``, and hands ``load_parameters`` a checkpoint that says it was
  written on a GPU this machine does not have (as one written on a bigger
  machine does), which only loads with ``map_location``.
* ``03.device_bug``: the answer is the fixed ``train_step``. The checker runs
  it with the model on the ``meta`` device, which like a GPU refuses operands
  left on the CPU (and computes nothing), so the bug shows on any machine;
  then it runs two real steps on ``try_gpu()`` against a reference.
"""

from __future__ import annotations

import tempfile
import weakref
from contextlib import contextmanager
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn
from torch.overrides import TorchFunctionMode

from ._util import CheckFailed, one_cpu_thread

__all__ = [
    "make_net",
    "reference_train_step",
    "saved_as_if_on",
    "check_parameters",
    "check_device_bug",
]

CLASS_WEIGHTS = (1.0, 2.0, 1.0)


def make_net() -> nn.Sequential:
    """The exercises' model: 4 inputs, 8 hidden units, 3 classes."""
    return nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))


def _seeded_net(seed: int) -> nn.Sequential:
    with torch.random.fork_rng(devices=[]):  # leave the learner's RNG state alone
        torch.manual_seed(seed)
        return make_net()


@contextmanager
def saved_as_if_on(location: str):
    """``torch.save`` inside the block labels every tensor as stored on ``location``.

    A checkpoint records where each tensor lived; ``torch.load`` puts it back
    there unless ``map_location`` says otherwise. This writes the label that a
    save on ``location`` (e.g. ``"cuda:1"``) would write, on any machine.
    """
    import torch.serialization as serialization

    saved = serialization.location_tag
    serialization.location_tag = lambda storage: location
    try:
        yield
    finally:
        serialization.location_tag = saved


def _same_params(a: nn.Module, b: nn.Module, close: bool = False) -> bool:
    sa, sb = a.state_dict(), b.state_dict()
    same = (lambda u, v: torch.allclose(u, v, rtol=1e-5, atol=1e-6)) if close else torch.equal
    return sa.keys() == sb.keys() and all(same(sa[k].cpu(), sb[k].cpu()) for k in sa)


def _check_halve(halve, device, passed):
    net = _seeded_net(0).to(device)
    weight = net[0].weight
    before = {k: v.detach().clone() for k, v in net.state_dict().items()}
    try:
        halve(net)
    except RuntimeError as error:
        if "leaf Variable" in str(error) or "in-place" in str(error):
            raise CheckFailed(
                "autograd refused an in-place change of a parameter: wrap it in "
                "`with torch.no_grad():` (parameters are leaves that require grad)"
            ) from None
        raise
    if net[0].weight is not weight:
        raise CheckFailed(
            "net[0].weight is now a different Parameter object: an optimizer built before "
            "still updates the old one. Change the values in place, e.g. "
            "net[0].weight.mul_(0.5) under torch.no_grad()"
        )
    if weight.device != torch.device(device):
        raise CheckFailed(
            f"net[0].weight moved to {weight.device}: keep the model on its device and "
            "change its parameters there"
        )
    if weight.grad_fn is not None or not weight.requires_grad:
        raise CheckFailed(
            "net[0].weight is no longer a trainable leaf: make the change under "
            "torch.no_grad(), so autograd does not record it"
        )
    if not torch.allclose(weight.detach().cpu(), before["0.weight"].cpu() * 0.5):
        raise CheckFailed("net[0].weight should be exactly half of what it was")
    changed = [
        k for k, v in net.state_dict().items() if k != "0.weight" and not torch.equal(v, before[k])
    ]
    if changed:
        raise CheckFailed(f"only net[0].weight should change, but {', '.join(changed)} did too")
    passed.append(
        "halve_first_layer halves net[0].weight in place: same Parameter, same device, "
        "still a leaf, nothing else changed"
    )


@contextmanager
def _conversions_of(net: nn.Module):
    """Record the devices that ``net`` itself is converted to (``.to``, ``.cpu``, ``.half``...)."""
    seen: list[torch.device | str] = []
    original = nn.Module._apply

    def recorded(module, fn, *args, **kwargs):
        if module is net:
            try:
                probe = fn(torch.zeros(1))
                seen.append(probe.device if probe.dtype == torch.float32 else str(probe.dtype))
            except (RuntimeError, AssertionError):  # a GPU this machine lacks
                seen.append("cuda")
        return original(module, fn, *args, **kwargs)

    nn.Module._apply = recorded
    try:
        yield seen
    finally:
        nn.Module._apply = original


def _check_save(save, device, folder: Path, passed) -> Path:
    net = _seeded_net(1).to(device)
    path = folder / "saved_by_you.pt"
    with _conversions_of(net) as seen:
        save(net, path)
    moved = any(p.device != torch.device(device) for p in net.parameters())
    last = seen[-1] if seen else None
    if moved or (isinstance(last, torch.device) and last.type == "cpu"):
        raise CheckFailed(
            "save_parameters moved the model itself to the CPU (net.cpu() or net.to('cpu')): "
            "the model being trained must stay on its GPU. Save without moving it, "
            "torch.save(net.state_dict(), path): the file records each tensor's device, and "
            "load_parameters' map_location puts it where you want"
        )
    if isinstance(last, str) or any(p.dtype != torch.float32 for p in net.parameters()):
        raise CheckFailed(
            "save_parameters changed the model's dtype (net.half(), net.to(dtype)): only "
            "read the model, torch.save(net.state_dict(), path)"
        )
    if not path.is_file():
        raise CheckFailed("save_parameters(net, path) wrote no file at path: torch.save(..., path)")
    try:
        state = torch.load(path, map_location="cpu", weights_only=True)
    except Exception as error:  # an UnpicklingError for a whole pickled module
        raise CheckFailed(
            "torch.load(path, weights_only=True) cannot read your file "
            f"({type(error).__name__}): save net.state_dict(), tensors only, not the module "
            "itself (loading a pickled module can run arbitrary code)"
        ) from None
    if not isinstance(state, dict) or state.keys() != net.state_dict().keys():
        raise CheckFailed(
            "the file does not hold net.state_dict(): save exactly that dictionary of tensors"
        )
    if not all(torch.equal(state[k], v.cpu()) for k, v in net.state_dict().items()):
        raise CheckFailed("the saved tensors differ from the model's parameters")
    passed.append(
        "save_parameters writes a state_dict that torch.load(weights_only=True) reads back exactly"
    )
    return path


def _load(load, path, device, what):
    try:
        net = load(make_net, path, device)
    except RuntimeError as error:
        if "deserialize object on" in str(error) or "CUDA device" in str(error):
            raise CheckFailed(
                f"torch.load failed on {what}: pass map_location=device, which moves every "
                "tensor to the device you ask for as it loads"
            ) from None
        raise
    if not isinstance(net, nn.Module):
        raise CheckFailed(
            f"load_parameters returned a {type(net).__name__}: return the model, built with "
            "make_net() and filled with load_state_dict"
        )
    wrong = {str(p.device) for p in net.parameters()} - {str(torch.device(device))}
    if wrong:
        where = ", ".join(sorted(wrong))
        stayed = "the model stayed on the CPU" if wrong == {"cpu"} else f"the model is on {where}"
        raise CheckFailed(
            f"{stayed}: the loaded model has parameters on {where}, not on {device}; build it "
            "there and then load, net = make_net().to(device) (or move it, net.to(device))"
        )
    return net


def _check_load_on_another_device(load, path) -> None:
    # The meta device stands for a GPU: tensors there hold no data, so only placement shows.
    meta = torch.device("meta")
    try:
        net = load(make_net, path, meta)
    except (RuntimeError, NotImplementedError) as error:
        if "meta" not in str(error):
            raise
        raise CheckFailed(
            "load_parameters(make_net, path, device) failed for a device other than the CPU "
            "(checked with the meta device): the model stayed on the CPU while the tensors "
            "were loaded onto device. Build it there, net = make_net().to(device), then "
            "net.load_state_dict(torch.load(path, map_location=device, weights_only=True))"
        ) from None
    if not isinstance(net, nn.Module):
        raise CheckFailed(f"load_parameters returned a {type(net).__name__}: return the model")
    wrong = sorted({str(p.device) for p in net.parameters()} - {"meta"})
    if wrong:
        raise CheckFailed(
            f"asked for device {meta}, load_parameters returned a model on {', '.join(wrong)}: "
            "put the model on the device you are given (make_net().to(device)), whatever "
            "map_location the tensors were loaded with"
        )


@one_cpu_thread
def check_parameters(answer, passed):
    """Edit a parameter in place, save a state_dict, load it onto another device."""
    from ..devices import num_gpus, try_gpu

    if not isinstance(answer, tuple | list) or len(answer) != 3 or not all(map(callable, answer)):
        raise CheckFailed(
            "pass the three functions as a tuple: check('03.parameters', "
            "(halve_first_layer, save_parameters, load_parameters))"
        )
    halve, save, load = answer
    device = try_gpu()
    _check_halve(halve, device, passed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = _check_save(save, device, folder, passed)

        # A checkpoint written on GPU number num_gpus(): one this machine does not have.
        source = _seeded_net(2)
        elsewhere = folder / "from_a_bigger_machine.pt"
        with saved_as_if_on(f"cuda:{num_gpus()}"):
            torch.save(source.state_dict(), elsewhere)
        what = "a checkpoint written on a GPU this machine does not have"
        net = _load(load, elsewhere, device, what)
        if not _same_params(net, source):
            raise CheckFailed(
                "the loaded parameters differ from the checkpoint's: "
                "net.load_state_dict(torch.load(path, map_location=device, weights_only=True))"
            )
        passed.append(
            "load_parameters loads a checkpoint written on a GPU this machine does not have "
            "onto the requested device (map_location)"
        )

        _check_load_on_another_device(load, path)
        net = _load(load, path, torch.device("cpu"), "your own checkpoint")
        if not _same_params(net, _seeded_net(1)):
            raise CheckFailed("parameters saved by save_parameters came back different")
        passed.append(
            "round trip: parameters saved on the model's device come back identical on the CPU"
        )


# ---------------------------------------------------------------------------------------------
# 03.device_bug


def reference_train_step(net, X, y, opt, device, *, weighted=True, zero_grad=True, step=True):
    """The fixed training step: the batch and the class weights on the model's device.

    ``weighted``, ``zero_grad`` and ``step`` switch off a part, to name a learner's mistake.
    """
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device) if weighted else None
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    if zero_grad:
        opt.zero_grad()
    loss.backward()
    if step:
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


class _Origins(TorchFunctionMode):
    """Label tensors by where they came from; note the first operation mixing meta and CPU."""

    def __init__(self, labels: dict):
        super().__init__()
        self._labels = {id(t): (weakref.ref(t), label) for t, label in labels}
        self.mixed: tuple[str, str, str] | None = None
        self.cuda_by_name = False  # .cuda(), .to("cuda"), device="cuda": not the device given

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
        if name != "__get__" and self.mixed is None:
            other = [t for t in tensors if t.device.type != "meta" and t.dim() > 0]
            if other and any(t.device.type == "meta" for t in tensors):
                where = "the CPU" if other[0].device.type == "cpu" else str(other[0].device)
                self.mixed = (name, self.label(other[0]) or f"a tensor on {where}", where)
        result = func(*args, **kwargs)
        if isinstance(result, torch.Tensor) and name != "__get__":
            made = not tensors and name in ("tensor", "as_tensor", "ones", "zeros", "full")
            label = (
                f"torch.{name}(...) made in your step"
                + ("" if "device" in kwargs else " without device=")
                if made
                else next((self.label(t) for t in tensors if self.label(t)), None)
            )
            if label:
                self._labels[id(result)] = (weakref.ref(result), label)
        return result


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
        raise CheckFailed(
            "the step copies a tensor from the model's device to the CPU (.cpu(), "
            ".to('cpu'), .numpy(), or the model itself): keep the model on its device and "
            "move the data to it"
        ) from None
    except RuntimeError as error:
        message = str(error)
        if "item()" in message or "data-dependent" in message:
            raise CheckFailed(
                "the step reads a value on the host (.item(), float(), bool()): return the "
                "loss tensor (loss.detach()) and let the caller read it when needed; on a GPU "
                "every such read waits for the device"
            ) from None
        low = message.lower()
        by_name = ("cuda" in low or "nvidia" in low) and ("driver" in low or "compiled" in low)
        if by_name or origins.cuda_by_name:
            raise CheckFailed(_BY_NAME) from None
        if "expected device" not in message and "on device" not in message:
            raise
        op, what, where = origins.mixed or ("an operation", "a CPU tensor", "the CPU")
        if what.startswith("the batch"):
            still = "still on the CPU" if where == "the CPU" else f"on {where}"
            raise CheckFailed(
                f"{what} is {still} when {op} uses it with the model on the device: "
                "move X and y to device at the start of the step (X, y = X.to(device), "
                f"y.to(device)) (PyTorch said: {message})"
            ) from None
        raise CheckFailed(
            f"{what} stays on {where} while the model is on the device ({op} got both): "
            "create it with device=device, e.g. torch.tensor(CLASS_WEIGHTS, device=device) "
            f"(PyTorch said: {message})"
        ) from None
    if origins.cuda_by_name:  # ran, on a GPU machine, but not on the device it was given
        raise CheckFailed(_BY_NAME)
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
        "the meta device, which like a GPU refuses CPU operands)"
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
        "the optimizer never stepped: keep opt.step() after loss.backward()": {"step": False},
    }
    nets = {k: _seeded_net(4).to(device) for k in [*variants, "answer"]}
    opts = {k: torch.optim.SGD(n.parameters(), lr=0.05, momentum=0.9) for k, n in nets.items()}
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
    if not _same_params(nets["answer"], nets[""], close=True):
        hint = next(
            (h for h in variants if h and _same_params(nets["answer"], nets[h], close=True)),
            "use the optimizer you are given (opt), and keep the class weights "
            f"{list(CLASS_WEIGHTS)}, the cross-entropy loss, opt.zero_grad(), loss.backward() "
            "and opt.step(); only change where tensors live",
        )
        raise CheckFailed(f"after three steps the parameters differ from the reference: {hint}")
    passed.append(
        "three steps on try_gpu() match the reference step (with the optimizer given, "
        "SGD with momentum)"
    )
