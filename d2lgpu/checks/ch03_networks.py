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
from contextlib import contextmanager
from pathlib import Path

import torch
import torch.nn.functional as F
from torch import nn

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


def _same_params(a: nn.Module, b: nn.Module) -> bool:
    sa, sb = a.state_dict(), b.state_dict()
    return sa.keys() == sb.keys() and all(torch.equal(sa[k].cpu(), sb[k].cpu()) for k in sa)


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
        raise CheckFailed(
            f"the loaded model has parameters on {', '.join(sorted(wrong))}: move it to "
            "device (net.to(device))"
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


def reference_train_step(net, X, y, opt, device):
    """The fixed training step: the batch and the class weights on the model's device."""
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor(CLASS_WEIGHTS, device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


def _batch(seed: int, n: int = 16):
    gen = torch.Generator().manual_seed(seed)
    X = torch.randn(n, 4, generator=gen)
    y = torch.randint(0, 3, (n,), generator=gen)
    return X, y


def _on_meta(step, data_on_meta: bool):
    net = make_net().to("meta")
    opt = torch.optim.SGD(net.parameters(), lr=0.1)
    X, y = _batch(0)
    if data_on_meta:
        X, y = X.to("meta"), y.to("meta")
    try:
        loss = step(net, X, y, opt, torch.device("meta"))
    except NotImplementedError as error:
        if "meta" not in str(error).lower():
            raise  # the learner's stub: not attempted yet
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
        if "expected device" not in message and "on device" not in message:
            raise
        if data_on_meta:
            raise CheckFailed(
                "a tensor made inside the step stays on the CPU while the model is on the "
                "device: create class_weights with device=device (or X.device) "
                f"(PyTorch said: {message})"
            ) from None
        raise CheckFailed(
            "the batch is still on the CPU when the model is on the device: move X and y to "
            f"device at the start of the step (X.to(device)) (PyTorch said: {message})"
        ) from None
    moved = {str(p.device) for p in net.parameters()} - {"meta"}
    if moved:
        raise CheckFailed(
            f"the step moved the model to {', '.join(sorted(moved))}: keep the model where it "
            "is and move the data to it"
        )
    return loss


@one_cpu_thread
def check_device_bug(answer, passed):
    """The fixed ``train_step``: no CPU leftovers (meta device), then two real steps."""
    from ..devices import try_gpu

    if not callable(answer):
        raise CheckFailed("pass the fixed function: check('03.device_bug', train_step)")
    _on_meta(answer, data_on_meta=True)
    passed.append(
        "tensors made inside the step live on the model's device (checked with the model on "
        "the meta device, which like a GPU refuses CPU operands)"
    )
    _on_meta(answer, data_on_meta=False)
    passed.append("a batch that arrives on the CPU is moved to the model's device")
    passed.append("the model stays on its device")

    device = try_gpu()
    nets = [_seeded_net(4).to(device) for _ in range(2)]
    opts = [torch.optim.SGD(n.parameters(), lr=0.1) for n in nets]
    for seed in (1, 2):
        X, y = _batch(seed)
        want = reference_train_step(nets[0], X, y, opts[0], device)
        got = answer(nets[1], X, y, opts[1], device)
        got = torch.as_tensor(got).detach().float().cpu()
        if got.numel() != 1 or not torch.allclose(got.reshape(()), want.cpu(), rtol=1e-5):
            raise CheckFailed(
                f"the step's loss is {got.reshape(-1)[0].item():.5g}, the reference "
                f"{want.item():.5g}: keep the class weights {list(CLASS_WEIGHTS)} and the "
                "cross-entropy loss; only change where tensors live"
            )
        if not all(
            torch.allclose(a, b, rtol=1e-5, atol=1e-6)
            for a, b in zip(nets[0].parameters(), nets[1].parameters(), strict=True)
        ):
            raise CheckFailed(
                "after the step the parameters differ from the reference: keep "
                "opt.zero_grad(), loss.backward() and opt.step() as in the given step"
            )
    passed.append("two steps on try_gpu() match the reference step (losses and parameters)")
