"""Checker ``03.parameters``: edit, save and load a model's parameters.

The answer is ``(halve_first_layer, save_parameters, load_parameters)``. The
checker edits, saves and loads a small model on ``try_gpu()``, and hands
``load_parameters`` a checkpoint that says it was written on a GPU this machine
does not have (as one written on a bigger machine does), which only loads with
``map_location``.
"""

from __future__ import annotations

import tempfile
from contextlib import contextmanager
from pathlib import Path

import torch
from torch import nn

from ._ch03_loading import (
    check_load_builds_with_make_net,
    check_load_on_another_device,
    check_load_reads_the_file,
    check_load_runs_no_code,
    keys_hint,
    load_checked,
)
from ._ch03_meta_watch import Origins
from ._ch03_networks import defaults_kept, make_net, same_params, seeded_net
from ._kit import KnownError, call_answer, patched
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_parameters", "saved_as_if_on"]


@contextmanager
def saved_as_if_on(location: str):
    """``torch.save`` inside the block labels every tensor as stored on ``location``.

    A checkpoint records where each tensor lived; ``torch.load`` puts it back
    there unless ``map_location`` says otherwise. This writes the label that a
    save on ``location`` (e.g. ``"cuda:1"``) would write, on any machine.
    """
    import torch.serialization as serialization

    with patched((serialization, "location_tag", lambda storage: location)):
        yield


_IN_PLACE = [
    KnownError(
        RuntimeError,
        ("leaf Variable", "in-place"),
        "autograd refused an in-place change of a parameter: wrap it in "
        "`with torch.no_grad():` (parameters are leaves that require grad)",
    )
]


def _check_halve(halve, device, passed):
    net = seeded_net(0).to(device)
    weight = net[0].weight
    before = {k: v.detach().clone() for k, v in net.state_dict().items()}
    for p in net.parameters():  # gradients being accumulated (over micro-batches, say)
        p.grad = torch.full_like(p, 0.25)
    memory = weight.data_ptr()
    with defaults_kept("halve_first_layer"):
        call_answer(halve, net, known=_IN_PLACE)
    if net[0].weight is not weight:
        raise CheckFailed(
            "net[0].weight is now a different Parameter object: an optimizer built before "
            "still updates the old one. Change the values of the Parameter itself, with an "
            "in-place operation (its name ends in _, as mul_), under torch.no_grad()"
        )
    if weight.device != torch.device(device):
        raise CheckFailed(
            f"net[0].weight moved to {weight.device}: keep the model on its device and "
            "change its parameters there"
        )
    if weight.data_ptr() != memory:
        raise CheckFailed(
            "net[0].weight is the same Parameter, but its values are in new memory (its "
            "data_ptr() changed): assigning weight.data = (a new tensor) swaps in a copy "
            "instead of changing the values in place, and whatever still holds the old memory "
            "(a view of the weight, an optimizer's flat buffer) no longer sees them. Multiply "
            "in place, with an operation whose name ends in _ (as mul_), under torch.no_grad()"
        )
    if weight.grad_fn is not None or not weight.requires_grad:
        raise CheckFailed(
            "net[0].weight is no longer a trainable leaf: make the change under "
            "torch.no_grad(), so autograd does not record it"
        )
    if not torch.allclose(weight.detach().cpu(), before["0.weight"].cpu() * 0.5):
        if torch.equal(weight.detach().cpu(), before["0.weight"].cpu()):
            raise CheckFailed(
                "net[0].weight is unchanged: an operation without a trailing _ (mul, *) makes "
                "a new tensor, which is thrown away unless you keep it, and a copy (.cpu(), "
                ".clone(), copy.deepcopy(net)) is another tensor, whose change the net never "
                "sees. Halve the weight of the net you are given in place (mul_, *=) under "
                "torch.no_grad()"
            )
        raise CheckFailed("net[0].weight should be exactly half of what it was")
    changed = [
        k for k, v in net.state_dict().items() if k != "0.weight" and not torch.equal(v, before[k])
    ]
    if changed:
        raise CheckFailed(f"only net[0].weight should change, but {', '.join(changed)} did too")
    if not all(p.grad is not None and bool((p.grad == 0.25).all()) for p in net.parameters()):
        raise CheckFailed(
            "halve_first_layer changed the model's gradients (.grad cleared or zeroed, as "
            "net.zero_grad() does): only the weight's values should change. Gradients being "
            "accumulated over micro-batches would be lost; clearing them is the training "
            "loop's job (opt.zero_grad() before the next backward)"
        )
    _check_halve_elsewhere(halve)
    passed.append(
        "halve_first_layer halves net[0].weight in place: same Parameter, same device, "
        "still a leaf, nothing else changed"
    )


def _check_halve_elsewhere(halve) -> None:
    """On a float64 model, and on the meta device (standing for a GPU)."""
    net = seeded_net(0).double()
    weight = net[0].weight
    assert isinstance(weight, torch.Tensor)
    before = weight.detach().clone()
    with defaults_kept("halve_first_layer"):
        call_answer(halve, net, known=_IN_PLACE)
    if not torch.equal(weight.detach(), before * 0.5):
        raise CheckFailed(
            "net[0].weight of a float64 model (net.double()) was not halved: .float(), "
            ".to(dtype) or .type() return a copy when the dtype differs, so an in-place "
            "change of it is lost. Halve the Parameter itself, in its own dtype "
            "(net[0].weight.mul_(0.5) under torch.no_grad())"
        )
    net = seeded_net(0).to("meta")
    with defaults_kept("halve_first_layer"), Origins([]) as origins:
        call_answer(halve, net, known=_IN_PLACE)
    if origins.mixed is not None:
        op, _, where = origins.mixed
        raise CheckFailed(
            f"halve_first_layer mixes devices: {op} got the weight and a tensor on {where} "
            "(checked with the model on the meta device, which stands for a GPU, where this "
            "raises a device-mismatch error). A factor made on the CPU (torch.full(w.shape, "
            "0.5), torch.tensor of several values) is one: multiply by the number 0.5, or make "
            "the factor on the weight's device (torch.full_like(w, 0.5))"
        )


class _Seen(list):
    layer: str | None = None  # the layer of the last conversion, None for the model itself
    inside = False  # in a conversion already recorded (its layers')


@contextmanager
def _conversions_of(net: nn.Module):
    """Record what ``net`` or a layer of it is converted to (``.to``, ``.cpu``, ``.half``...):
    a device, or a dtype's name; "cuda" for a GPU this machine lacks. The outermost call only
    (``net.cpu()`` converts each layer too); ``seen.layer`` is the last one's, None for ``net``."""
    seen = _Seen()
    original = nn.Module._apply
    layers = {id(m): name for name, m in net.named_modules()}

    def recorded(module, fn, *args, **kwargs):
        if id(module) not in layers or seen.inside:
            return original(module, fn, *args, **kwargs)
        try:
            probe = fn(torch.zeros(1))
            seen.append(probe.device if probe.dtype == torch.float32 else str(probe.dtype))
        except (RuntimeError, AssertionError):  # a GPU this machine lacks
            seen.append("cuda")
        seen.layer, seen.inside = layers[id(module)] or None, True
        try:
            return original(module, fn, *args, **kwargs)
        finally:
            seen.inside = False

    with patched((nn.Module, "_apply", recorded)):
        yield seen


def _check_save(save, device, folder: Path, passed) -> Path:
    net = seeded_net(1).to(device)
    path = folder / "saved_by_you.pt"
    modes = [m.training for m in net.modules()]
    with _conversions_of(net) as seen, defaults_kept("save_parameters"):
        save(net, path)
    if [m.training for m in net.modules()] != modes:
        raise CheckFailed(
            "save_parameters left the model in another mode (net.eval() or net.train(False)): "
            "only read the model. Training that resumes after a checkpoint would run with "
            "dropout off and BatchNorm's statistics frozen; the state_dict is the same in "
            "either mode"
        )
    moved = [p.device for p in net.parameters() if p.device != torch.device(device)]
    last = seen[-1] if seen else None
    if not moved and isinstance(last, torch.device) and last.type == "cpu":
        moved = [last]  # net.cpu() on the CPU: a move on a GPU
    if moved:
        layer = seen.layer and "net" + "".join(
            f"[{part}]" if part.isdigit() else f".{part}" for part in seen.layer.split(".")
        )
        where = "the CPU (net.cpu() or net.to('cpu'))" if moved[0].type == "cpu" else moved[0]
        where = f"the CPU ({layer}.cpu())" if layer and moved[0].type == "cpu" else where
        what = f"its layer {layer}" if layer else "the model itself"
        raise CheckFailed(
            f"save_parameters moved {what} to {where}: the model being trained "
            "must stay on its GPU. Save its state_dict without moving it: the file records "
            "each tensor's device, and load_parameters' map_location puts it where you want"
        )
    if isinstance(last, str) or any(p.dtype != torch.float32 for p in net.parameters()):
        raise CheckFailed(
            "save_parameters changed the model's dtype (net.half(), net.to(dtype)): only "
            "read the model, and save its state_dict as it is"
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
        raise CheckFailed(keys_hint(state, list(net.state_dict())))
    if not all(torch.equal(state[k], v.cpu()) for k, v in net.state_dict().items()):
        raise CheckFailed("the saved tensors differ from the model's parameters")
    _check_save_buffers(save, device, folder)
    passed.append(
        "save_parameters writes a state_dict that torch.load(weights_only=True) reads back exactly"
    )
    return path


def _check_save_buffers(save, device, folder: Path) -> None:
    """A model with buffers (BatchNorm's running statistics): they are in its state_dict too."""
    with torch.random.fork_rng(devices=[]):
        net = nn.Sequential(nn.Linear(4, 8), nn.BatchNorm1d(8), nn.ReLU(), nn.Linear(8, 3))
    net = net.to(device)
    path = folder / "with_buffers.pt"
    with defaults_kept("save_parameters"):
        save(net, path)
    state = torch.load(path, map_location="cpu", weights_only=True)
    buffers = [name for name, _ in net.named_buffers()]
    missing = [k for k in buffers if not isinstance(state, dict) or k not in state]
    if missing:
        raise CheckFailed(
            f"saved from a model with a BatchNorm layer, the file lacks its buffers "
            f"({', '.join(missing)}): named_parameters() and parameters() leave buffers out, "
            "and a strict load_state_dict then fails on the missing keys. Save "
            "net.state_dict(), which holds the parameters and the buffers"
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

        # A checkpoint written on a GPU this machine does not have: number num_gpus(), and
        # cuda:1 where there is none, as the prompt's (a map_location that renames only
        # cuda:0 leaves it where it was).
        source = seeded_net(2)
        elsewhere = folder / "from_a_bigger_machine.pt"
        with saved_as_if_on(f"cuda:{max(num_gpus(), 1)}"):
            torch.save(source.state_dict(), elsewhere)
        what = "a checkpoint written on a GPU this machine does not have"
        # a seed none of the checkpoints was made with: a model the answer makes afresh (the
        # checkpoint never loaded) cannot equal one by chance (grading.check restores the RNG)
        torch.manual_seed(0x5EED)
        net = load_checked(load, elsewhere, device, what)
        if [m.training for m in net.modules()] != [m.training for m in make_net().modules()]:
            raise CheckFailed(
                "load_parameters returned the model in eval mode, where make_net() builds it "
                "in train mode: return it as make_net() built it, filled with the parameters. "
                "Whoever uses it chooses: net.eval() for inference, or training on (with "
                "dropout and BatchNorm's statistics working)"
            )
        if not same_params(net, source):
            raise CheckFailed(
                "the loaded parameters differ from the checkpoint's: fill the new model with "
                "load_state_dict of exactly what torch.load read from path"
            )
        passed.append(
            "load_parameters loads a checkpoint written on a GPU this machine does not have "
            "onto the requested device (map_location)"
        )

        check_load_on_another_device(load, path)
        net = load_checked(load, path, "cpu", "your own checkpoint")  # a string, as in 3.1
        if not same_params(net, seeded_net(1)):
            raise CheckFailed("parameters saved by save_parameters came back different")
        passed.append(
            "round trip: parameters saved on the model's device come back identical on the CPU "
            "(asked for as the string 'cpu')"
        )
        check_load_reads_the_file(load, path, net, passed)
        check_load_runs_no_code(load, folder, passed)
        check_load_builds_with_make_net(load, folder, passed)
