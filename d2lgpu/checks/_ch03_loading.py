"""The 03.parameters checker's loads: what ``load_parameters`` must do with a checkpoint.

It must put what it loads on the device it is given (a ``torch.device`` or a
string, as the exercise's own cell passes ``"cpu"``), also on a device other than
the CPU (the meta device stands for one), read the file every call, and never
run code stored in a checkpoint. Also what a saved file holds where it is not a
``state_dict`` (``keys_hint``). What it is not: the checker,
:mod:`.ch03_parameters`, which edits and saves the model first.
"""

from __future__ import annotations

from pathlib import Path

import torch
from torch import nn
from torch.overrides import TorchFunctionMode

from ._ch03_networks import defaults_kept, make_net, same_params, seeded_net
from ._kit import KnownError, call_answer, patched
from ._util import CheckFailed

__all__ = [
    "UNPICKLED",
    "CodeInAFile",
    "MetaCopiesAllowed",
    "check_load_builds_with_make_net",
    "check_load_on_another_device",
    "check_load_refuses_missing_keys",
    "check_load_reads_the_file",
    "check_load_runs_no_code",
    "keys_hint",
    "load_checked",
]

UNPICKLED: list[str] = []


def _ran_on_load() -> str:
    """What unpickling a :class:`CodeInAFile` calls: code a checkpoint made the loader run."""
    UNPICKLED.append("ran")
    return "this string was made by code inside the checkpoint"


class CodeInAFile:
    """Pickles as a call of :func:`_ran_on_load`, which only a full unpickler makes.

    ``torch.load(weights_only=True)`` refuses the file (an ``UnpicklingError``);
    ``weights_only=False`` runs the call, however the learner spelled ``torch.load``.
    """

    def __reduce__(self):
        return (_ran_on_load, ())


def check_load_runs_no_code(load, folder: Path, passed) -> None:
    path = folder / "from_a_stranger.pt"
    torch.save({**seeded_net(3).state_dict(), "note": CodeInAFile()}, path)
    UNPICKLED.clear()
    try:
        load(make_net, path, torch.device("cpu"))
    except Exception:  # refused (weights_only=True), or the extra key: both are fine here
        pass
    if UNPICKLED:
        raise CheckFailed(
            "load_parameters ran code stored in a checkpoint: it loads with "
            "weights_only=False, which unpickles arbitrary Python objects, so a checkpoint "
            "from someone else can run code on your machine. A state_dict holds tensors only: "
            "torch.load(path, map_location=device, weights_only=True) (the default since "
            "torch 2.6)"
        )
    passed.append("load_parameters refuses to run code stored in a checkpoint (weights_only=True)")


def load_checked(load, path, device, what, build=make_net, known=()):
    """``load(build, path, device)``, the model it returns checked: a module on ``device``.
    ``known``: errors of the answer's with hints of their own, besides a missing map_location
    and a device given as a string."""
    no_map = KnownError(
        RuntimeError,
        ("deserialize object on",),  # either message of torch.load for a missing GPU
        f"torch.load failed on {what}: pass map_location=device, which moves every "
        "tensor to the device you ask for as it loads (the device itself, not a dict that "
        "renames only some GPUs: a checkpoint may name any GPU, cuda:1 as well as cuda:0)",
    )
    a_string = KnownError(
        AttributeError,
        ("'str' object has no attribute",),
        f"load_parameters(make_net, path, {device!r}) raised AttributeError: the device may "
        "come as a string, as the exercise's own cell passes 'cpu'. Make it a device first "
        "(torch.device(device)), or pass it on as it is to to() and map_location, which take both",
    )
    with defaults_kept("load_parameters"):
        net = call_answer(load, build, path, device, known=[no_map, a_string, *known])
    if not isinstance(net, nn.Module):
        raise CheckFailed(
            f"load_parameters returned a {type(net).__name__}: return the model, built with "
            "make_net() and filled with load_state_dict"
        )
    if any(p.is_inference() for p in net.parameters()):
        raise CheckFailed(
            "the loaded model's parameters are inference tensors: it was built or loaded inside "
            "torch.inference_mode(), and such tensors can never be trained, nor changed in "
            "place, outside it. Build and load the model outside inference_mode "
            "(load_state_dict needs no no_grad either)"
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


class MetaCopiesAllowed(TorchFunctionMode):
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


def check_load_on_another_device(load, path) -> None:
    # The meta device stands for a GPU: tensors there hold no data, so only placement shows.
    meta = torch.device("meta")
    saved = torch.storage._to  # type: ignore[attr-defined]

    def storage_to(storage, device, non_blocking=False):
        # storage.to(device=meta) in a map_location function: torch has no meta module to
        # copy with; an empty meta storage is what torch.load(map_location="meta") makes
        if torch.device(device).type == "meta":
            return torch.UntypedStorage(storage.nbytes(), device="meta")
        return saved(storage, device, non_blocking)

    try:
        with MetaCopiesAllowed(), patched((torch.storage, "_to", storage_to)):
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


def check_load_reads_the_file(load, path: Path, first: nn.Module, passed) -> None:
    """Loaded again after the file at ``path`` is written anew: a new model, what it holds now."""
    torch.save(seeded_net(5).state_dict(), path)
    again = load_checked(load, path, "cpu", "your own checkpoint, written again")
    if again is first or not same_params(again, seeded_net(5)):
        kept = "the same model object as before" if again is first else "what the file held"
        raise CheckFailed(
            f"loaded again after the file at path was written anew, load_parameters returned "
            f"{kept}: it keeps what it loaded (a cache keyed by path and device), which "
            "goes stale when a checkpoint is saved again at the same path (every epoch, say). "
            "Build a new model with make_net() and read the file on every call"
        )
    passed.append(
        "load_parameters reads the file on every call: written again, it loads what it holds now"
    )


def _wider() -> nn.Sequential:
    """Another make_net: 16 hidden units, not the exercise's 8."""
    return nn.Sequential(nn.Linear(4, 16), nn.ReLU(), nn.Linear(16, 3))


def check_load_builds_with_make_net(load, folder: Path, passed) -> None:
    """Given another ``make_net`` (a wider model), load_parameters builds that one."""
    source = seeded_net(7, _wider)
    path = folder / "wider.pt"
    torch.save(source.state_dict(), path)
    hint = (
        "given another make_net (a model of 16 hidden units, not 8), load_parameters did not "
        "return that model filled with the file's parameters: build the model by calling the "
        "make_net you are given, not a model of your own (the exercise's is one example)"
    )
    mismatch = KnownError(RuntimeError, ("size mismatch",), hint)
    net = load_checked(load, path, "cpu", "a checkpoint of another make_net", _wider, [mismatch])
    if not same_params(net, source):
        raise CheckFailed(hint)
    passed.append("load_parameters builds the model with the make_net it is given")


def keys_hint(state, wanted: list[str]) -> str:
    """What a saved object that is not ``net.state_dict()`` holds instead, by its keys."""
    hint = "the file does not hold net.state_dict(): save exactly that dictionary of tensors"
    if not isinstance(state, dict) or not state:
        return hint
    keys = [str(k) for k in state]
    for prefix in {k[: -len(w)] for k in keys[:1] for w in wanted if k.endswith(w)} - {""}:
        if sorted(k.removeprefix(prefix) for k in keys) == sorted(wanted):
            return (
                f"the file holds the model's tensors under other keys: every key starts with "
                f"{prefix!r} ({keys[0]!r} where net.state_dict() has "
                f"{keys[0].removeprefix(prefix)!r}). Save net.state_dict() as it is, with its "
                "own keys: load_state_dict matches tensors by key, and with strict=False a "
                "model whose keys match none of them loads nothing and says nothing"
            )
    shown = ", ".join(keys[:4]) + (", ..." if len(keys) > 4 else "")
    return f"{hint} (its keys are {shown}; net.state_dict()'s are {', '.join(wanted)})"


def check_load_refuses_missing_keys(load, folder: Path, passed) -> None:
    """A checkpoint that lacks a parameter of make_net()'s model must not load silently."""
    state = seeded_net(8).state_dict()
    del state["2.bias"]
    path = folder / "lacks_a_key.pt"
    torch.save(state, path)
    try:
        with defaults_kept("load_parameters"):
            load(make_net, path, torch.device("cpu"))
    except Exception:  # load_state_dict's "Missing key(s)", or the answer's own refusal
        passed.append("load_parameters refuses a checkpoint that lacks one of the model's keys")
        return
    raise CheckFailed(
        "given a checkpoint that lacks one of the model's parameters (2.bias), "
        "load_parameters returned a model anyway: load_state_dict(..., strict=False) skips "
        "missing and unexpected keys without a word, so that parameter keeps make_net()'s "
        "random values. Keep strict=True (the default), which raises on a file that does not "
        "match the model"
    )
