"""Checker ``03.parameters``: edit, save and load a model's parameters.

The answer is ``(halve_first_layer, save_parameters, load_parameters)``. The
checker edits, saves and loads a small model on ``try_gpu()``, and hands
``load_parameters`` a checkpoint that says it was written on a GPU this machine
does not have (as one written on a bigger machine does), which only loads with
``map_location``.
"""

from __future__ import annotations

import tempfile
import threading
from contextlib import contextmanager
from pathlib import Path

import torch
from torch import nn

from ._ch03_halving import check_halve
from ._ch03_loading import (
    check_load_builds_with_make_net,
    check_load_on_another_device,
    check_load_reads_the_file,
    check_load_refuses_missing_keys,
    check_load_runs_no_code,
    keys_hint,
    load_checked,
)
from ._ch03_networks import defaults_kept, load_tensors_only, make_net, same_params, seeded_net
from ._kit import patched
from ._kit_calls import threads_started
from ._util import CheckFailed, one_cpu_thread, written_as

__all__ = ["check_parameters", "saved_as_if_on"]


@contextmanager
def saved_as_if_on(*locations: str):
    """``torch.save`` inside the block labels the tensors as stored on ``locations``, in turn.

    A checkpoint records where each tensor lived; ``torch.load`` puts it back
    there unless ``map_location`` says otherwise. This writes the label that a
    save on ``location`` (e.g. ``"cuda:1"``) would write, on any machine; several
    locations stand for a model split over GPUs.
    """
    import itertools

    import torch.serialization as serialization

    turns = itertools.cycle(locations)
    with patched((serialization, "location_tag", lambda storage: next(turns))):
        yield


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


@contextmanager
def _saves_elsewhere():
    """Yield a list that holds, once the block has run, the names of the threads whose
    torch.save ran only after it ended. A torch.save on another thread waits (2 s at most) until the
    block ends, so a save left running in the background is seen on every run."""
    ended, here, late = threading.Event(), threading.get_ident(), []
    original = torch.save

    def held(*args, **kwargs):
        if threading.get_ident() == here:
            return original(*args, **kwargs)
        ended.wait(timeout=2)  # not set by then: the block is waiting for this thread (join)
        late.append(ended.is_set() and threading.current_thread().name)
        return original(*args, **kwargs)

    with patched((torch, "save", held)), threads_started(join_timeout=10):
        try:
            yield late
        finally:
            ended.set()  # before the threads are waited for: a held save goes on now
    late[:] = [name for name in late if name is not False]


def _check_save(save, device, folder: Path, passed) -> Path:
    net = seeded_net(1).to(device)
    path = folder / "saved_by_you.pt"
    older = b"an older checkpoint"  # saved again at the same path, as every epoch
    path.write_bytes(older)
    there = set(folder.iterdir())
    modes = [m.training for m in net.modules()]
    with _conversions_of(net) as seen, defaults_kept("save_parameters"), _saves_elsewhere() as late:
        save(net, path)
    if late:
        raise CheckFailed(
            "save_parameters returned before its file was written: torch.save ran on another "
            "thread (a save in the background), so a caller who loads the file, or goes on "
            "changing the model, right after the call meets a file not there yet or half "
            "written, or parameters saved after they changed. Call torch.save(net.state_dict(), "
            "path) in the function itself, or wait for the thread (join) before returning"
        )
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
        what, call = ("the model itself", "net.cpu() or net.to('cpu')")
        if seen.layer is not None:
            layer = written_as("net", seen.layer)
            what, call = f"its layer {layer}", f"{layer}.cpu()"
        where = f"the CPU ({call})" if moved[0].type == "cpu" else moved[0]
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
    elsewhere = sorted(p.name for p in set(folder.iterdir()) - there)
    left = path.is_file() and path.read_bytes() == older
    if not path.is_file() or (elsewhere and left):
        raise CheckFailed(
            "save_parameters(net, path) wrote no file at path"
            + f" (it wrote {', '.join(elsewhere)} beside it)" * bool(elsewhere)
            + ": torch.save(..., path), with path exactly as given"
        )
    if left:
        raise CheckFailed(
            "path already held a file (an older checkpoint), and save_parameters left it as it "
            "was: a checkpoint saved every epoch at one path must replace the last one. "
            "torch.save(net.state_dict(), path) overwrites it"
        )
    try:
        state = load_tensors_only(path)
    except Exception as error:  # an UnpicklingError for a whole pickled module
        raise CheckFailed(
            "torch.load(path, weights_only=True) cannot read your file "
            f"({type(error).__name__}): save net.state_dict(), tensors only, not the module "
            "itself (loading a pickled module can run arbitrary code)"
        ) from None
    own = net.state_dict()
    if not isinstance(state, dict) or state.keys() != own.keys():
        raise CheckFailed(keys_hint(state, list(own)))
    cast = [
        k
        for k, v in own.items()
        if isinstance(state[k], torch.Tensor) and state[k].dtype != v.dtype
    ]
    if cast:
        raise CheckFailed(
            f"the file holds {cast[0]} as {str(state[cast[0]].dtype).removeprefix('torch.')}, "
            f"the model's is {str(own[cast[0]].dtype).removeprefix('torch.')}: "
            "a cast on the way (.half() to save space) rounds the values, and the model loads "
            "back different. Save the state_dict as it is"
        )
    if not all(torch.equal(state[k], v.cpu()) for k, v in own.items()):
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
    state = load_tensors_only(path)
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
    check_halve(halve, device, passed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        path = _check_save(save, device, folder, passed)

        # A checkpoint written on GPUs this machine does not have: number num_gpus(), and
        # cuda:1 where there is none, as the prompt's, and one of a 16-GPU machine (a
        # map_location that renames only some GPUs, say a dict of 8, leaves the others).
        source = seeded_net(2)
        elsewhere = folder / "from_a_bigger_machine.pt"
        gpu = max(num_gpus(), 1)
        with saved_as_if_on(f"cuda:{gpu}", f"cuda:{gpu + 14}"):
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
        check_load_refuses_missing_keys(load, folder, passed)
