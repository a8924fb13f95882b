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
from torch.overrides import TorchFunctionMode

from ._ch03_networks import make_net, same_params, seeded_net
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
    memory = weight.data_ptr()
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
                "a new tensor, which is thrown away unless you keep it. Halve the weight in "
                "place (mul_, *=) under torch.no_grad()"
            )
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

    with patched((nn.Module, "_apply", recorded)):
        yield seen


def _check_save(save, device, folder: Path, passed) -> Path:
    net = seeded_net(1).to(device)
    path = folder / "saved_by_you.pt"
    with _conversions_of(net) as seen:
        save(net, path)
    moved = [p.device for p in net.parameters() if p.device != torch.device(device)]
    last = seen[-1] if seen else None
    if not moved and isinstance(last, torch.device) and last.type == "cpu":
        moved = [last]  # net.cpu() on the CPU: a move on a GPU
    if moved:
        where = "the CPU (net.cpu() or net.to('cpu'))" if moved[0].type == "cpu" else moved[0]
        raise CheckFailed(
            f"save_parameters moved the model itself to {where}: the model being trained "
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
        raise CheckFailed(
            "the file does not hold net.state_dict(): save exactly that dictionary of tensors"
        )
    if not all(torch.equal(state[k], v.cpu()) for k, v in net.state_dict().items()):
        raise CheckFailed("the saved tensors differ from the model's parameters")
    passed.append(
        "save_parameters writes a state_dict that torch.load(weights_only=True) reads back exactly"
    )
    return path


_UNPICKLED: list[str] = []


def _ran_on_load() -> str:
    """What unpickling a :class:`_CodeInAFile` calls: code a checkpoint made the loader run."""
    _UNPICKLED.append("ran")
    return "this string was made by code inside the checkpoint"


class _CodeInAFile:
    """Pickles as a call of :func:`_ran_on_load`, which only a full unpickler makes.

    ``torch.load(weights_only=True)`` refuses the file (an ``UnpicklingError``);
    ``weights_only=False`` runs the call, however the learner spelled ``torch.load``.
    """

    def __reduce__(self):
        return (_ran_on_load, ())


def _check_load_runs_no_code(load, folder: Path, passed) -> None:
    path = folder / "from_a_stranger.pt"
    torch.save({**seeded_net(3).state_dict(), "note": _CodeInAFile()}, path)
    _UNPICKLED.clear()
    try:
        load(make_net, path, torch.device("cpu"))
    except Exception:  # refused (weights_only=True), or the extra key: both are fine here
        pass
    if _UNPICKLED:
        raise CheckFailed(
            "load_parameters ran code stored in a checkpoint: it loads with "
            "weights_only=False, which unpickles arbitrary Python objects, so a checkpoint "
            "from someone else can run code on your machine. A state_dict holds tensors only: "
            "torch.load(path, map_location=device, weights_only=True) (the default since "
            "torch 2.6)"
        )
    passed.append("load_parameters refuses to run code stored in a checkpoint (weights_only=True)")


def _load(load, path, device, what):
    no_map = KnownError(
        RuntimeError,
        ("deserialize object on",),  # either message of torch.load for a missing GPU
        f"torch.load failed on {what}: pass map_location=device, which moves every "
        "tensor to the device you ask for as it loads",
    )
    net = call_answer(load, make_net, path, device, known=[no_map])
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
            "there (to(device)) and then load into it, or move it there once loaded"
        )
    return net


class _MetaCopiesAllowed(TorchFunctionMode):
    """A copy out of a meta tensor into a CPU one does nothing, instead of raising.

    A model built on the CPU, filled by load_state_dict from tensors loaded onto the
    device and then moved there is a right order on a GPU, where load_state_dict copies
    across devices; on the meta device, which stands for one here, nothing can be copied
    out of a tensor that holds no data. Only where the model ends up is checked here."""

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        if getattr(func, "__name__", "") == "copy_" and len(args) >= 2:
            dst, src = args[0], args[1]
            if isinstance(src, torch.Tensor) and src.is_meta and not dst.is_meta:
                return dst
        return func(*args, **kwargs)


def _check_load_on_another_device(load, path) -> None:
    # The meta device stands for a GPU: tensors there hold no data, so only placement shows.
    meta = torch.device("meta")
    try:
        with _MetaCopiesAllowed():
            net = load(make_net, path, meta)
    except (RuntimeError, NotImplementedError) as error:
        if "meta" not in str(error):
            raise
        raise CheckFailed(
            "load_parameters(make_net, path, device) failed for a device other than the CPU "
            "(checked with the meta device): the model stayed on the CPU while the tensors "
            "were loaded onto device. Put the new model on device (to()), before "
            "load_state_dict copies the loaded tensors into it or after"
        ) from None
    if not isinstance(net, nn.Module):
        raise CheckFailed(f"load_parameters returned a {type(net).__name__}: return the model")
    wrong = sorted({str(p.device) for p in net.parameters()} - {"meta"})
    if wrong:
        stayed = " (the model stayed on the CPU)" if wrong == ["cpu"] else ""
        raise CheckFailed(
            f"asked for device {meta}, load_parameters returned a model on {', '.join(wrong)}"
            f"{stayed}: put the model on the device you are given (to(device)), before "
            "load_state_dict or after it, whatever map_location the tensors were loaded with"
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
        source = seeded_net(2)
        elsewhere = folder / "from_a_bigger_machine.pt"
        with saved_as_if_on(f"cuda:{num_gpus()}"):
            torch.save(source.state_dict(), elsewhere)
        what = "a checkpoint written on a GPU this machine does not have"
        net = _load(load, elsewhere, device, what)
        if not same_params(net, source):
            raise CheckFailed(
                "the loaded parameters differ from the checkpoint's: fill the new model with "
                "load_state_dict of exactly what torch.load read from path"
            )
        passed.append(
            "load_parameters loads a checkpoint written on a GPU this machine does not have "
            "onto the requested device (map_location)"
        )

        _check_load_on_another_device(load, path)
        net = _load(load, path, torch.device("cpu"), "your own checkpoint")
        if not same_params(net, seeded_net(1)):
            raise CheckFailed("parameters saved by save_parameters came back different")
        passed.append(
            "round trip: parameters saved on the model's device come back identical on the CPU"
        )
        _check_load_runs_no_code(load, folder, passed)
