"""The checker kit's watch on process-wide state: :func:`defaults_kept` fails where a block
(the answer's run) leaves torch's defaults or another process-wide setting changed, and puts
each back: the defaults (device, dtype, grad mode, deterministic algorithms, float32 matmul
precision, anomaly detection), torch's thread count, the cuDNN and reduced-precision flags,
print options, flush-denormal, the globals ``torch.load(weights_only=True)`` may build (the
answer's ``add_safe_globals``), the garbage collector and thread switches, ``os.environ``
(the answer's writes), catch-all warning filters, a torch function mode or an inference mode
left entered; and torch's functions replaced by the answer's own (an assignment into
``torch``, ``torch.nn.functional``, ``torch.Tensor``...), named first, as the root cause of
the rest.

:func:`settings` reads the settings, :func:`left_changed` names what differs and puts it
back, :func:`defaults` and :func:`defaults_put_back` do the same for torch's defaults, and
:func:`replaced` finds torch's functions that are the answer's.

What it is not: a rule on what the answer does inside a block that undoes it.
"""

from __future__ import annotations

import os
import sys
import types
import warnings
from collections.abc import Iterator
from contextlib import contextmanager

import torch

from . import _kit_interpreter as interpreter
from ._kit import patched
from ._kit_environ import EnvironWrites, as_code, put
from ._kit_safe_globals import SafeGlobalsWrites
from ._kit_seeds import answers, reseeds_named
from ._util import CheckFailed, state_left_hint

__all__ = [
    "defaults",
    "defaults_kept",
    "defaults_put_back",
    "left_changed",
    "replaced",
    "replaced_by",
    "settings",
]

_FLAGS = [(torch.backends.cudnn, "torch.backends.cudnn", n)
          for n in ("benchmark", "deterministic", "enabled", "allow_tf32")] + [
          (torch.backends.cuda.matmul, "torch.backends.cuda.matmul", n)
          for n in ("allow_fp16_reduced_precision_reduction",
                    "allow_bf16_reduced_precision_reduction")]  # fmt: skip
_AUTOCAST = ("cpu", "cuda")
_PRINT = ("precision", "threshold", "edgeitems", "linewidth", "sci_mode")
_OWNERS = {"torch": torch, "torch.nn.functional": torch.nn.functional, "torch.linalg": torch.linalg,
           "torch.Tensor": torch.Tensor, "torch.autograd": torch.autograd,
           "torch.cuda": torch.cuda, "torch.distributed": torch.distributed}  # fmt: skip


def _autocast_nesting() -> int:
    """How many autocast blocks are open (torch reads it only by changing it, and back)."""
    n = torch.autocast_increment_nesting()
    torch.autocast_decrement_nesting()
    return n - 1


def _flushes_denormals() -> bool:
    with torch._C.DisableTorchFunction():  # on the CPU, out of sight of any watch or mode
        tiny = torch.tensor([1e-310], dtype=torch.float64, device="cpu")
        return bool(tiny.mul(1.0).item() == 0.0)


def _catch_alls() -> list:
    """The warning filters that silence (or raise) every warning of a category, anywhere."""
    return [f for f in warnings.filters
            if f[0] in ("ignore", "error") and f[1] is None and f[3] is None]  # fmt: skip


class _Count(int):
    """A count the watched ``torch.get_num_threads`` read: setting it again puts a count back."""


class _ThreadSets:
    """The block's ``torch.set_num_threads`` calls from the answer's own lines: ``left`` is
    the count of the last one that set a number the block had not read from
    ``torch.get_num_threads`` (a count of its own, even one equal to the caller's), or None
    where the last one put a read count back, or there was none."""

    def __init__(self) -> None:
        self.left: int | None = None
        self.changes = [(torch, "get_num_threads", self._read(torch.get_num_threads)),
                        (torch, "set_num_threads", self._set(torch.set_num_threads))]  # fmt: skip

    @staticmethod
    def _read(original):
        return lambda: _Count(original())

    def _set(self, original):
        def set_num_threads(n):  # nested watches: the innermost, called by the answer, notes it
            if answers(sys._getframe(1).f_code.co_filename):
                self.left = None if type(n) is _Count else n
            return original(n)

        return set_num_threads


def settings() -> dict:
    """The settings now, and the answer's writes to ``os.environ`` and to the globals that
    weights_only loads build from now on (stopped by :func:`left_changed`)."""
    return {**_read(), "environ": EnvironWrites(), "safe": SafeGlobalsWrites()}


def _read() -> dict:
    from torch._tensor_str import PRINT_OPTS

    return {
        "threads": torch.get_num_threads(),
        "flags": [getattr(owner, n) for owner, _, n in _FLAGS],
        "print": [getattr(PRINT_OPTS, n) for n in _PRINT],
        "denormal": _flushes_denormals(),
        "filters": _catch_alls(),
        "modes": {id(m) for m in torch.overrides._get_current_function_mode_stack()},
        "inference": torch.is_inference_mode_enabled(),
        "autocast": [
            (torch.is_autocast_enabled(d), torch.get_autocast_dtype(d)) for d in _AUTOCAST
        ],
        "nesting": _autocast_nesting(),
        "python": interpreter.read(),
    }


def left_changed(before: dict) -> list[str]:
    """What differs from ``before`` (:func:`settings`, read once), as the code that does it;
    each put back as it was."""
    now, changed = _read(), []
    if now["threads"] != before["threads"]:
        changed.append(f"torch.set_num_threads({now['threads']})")
        torch.set_num_threads(before["threads"])
    for (owner, where, n), was, is_ in zip(_FLAGS, before["flags"], now["flags"], strict=True):
        if was != is_:
            changed.append(f"{where}.{n} = {is_}")
            setattr(owner, n, was)
    if now["print"] != before["print"]:
        shown = [f"{n}={v}" for n, v, w in zip(_PRINT, now["print"], before["print"], strict=True)
                 if v != w]  # fmt: skip
        changed.append(f"torch.set_printoptions({', '.join(shown)})")
        torch.set_printoptions(**dict(zip(_PRINT, before["print"], strict=True)))
    if now["denormal"] != before["denormal"]:
        changed.append(f"torch.set_flush_denormal({now['denormal']})")
        torch.set_flush_denormal(before["denormal"])
    changed += interpreter.put_back(before["python"], now["python"])
    changed += before["safe"].stop()
    for key, was in sorted(before["environ"].stop().items()):
        if (new := os.environ.get(key)) != was:
            changed.append(as_code(key, new))
            put(key, was)
    for f in now["filters"]:
        if f not in before["filters"]:
            changed.append(f"warnings.filterwarnings({f[0]!r}, category={f[2].__name__})")
            warnings.filters.remove(f)  # type: ignore[attr-defined]  # a list at run time
    if len(now["modes"]) > len(before["modes"]):  # torch puts a default device's at the bottom
        stack = torch.overrides._get_current_function_mode_stack()
        extra = [m for m in stack if id(m) not in before["modes"]]
        devices = [m.device for m in extra if type(m).__name__ == "DeviceContext"]
        changed += [f"torch.set_default_device({str(d)!r})" for d in devices[-1:]]
        if len(extra) > len(devices):
            changed.append("a torch function mode left entered (a mode's __enter__ without "
                           "its __exit__)")  # fmt: skip
        if devices:  # its own exit first: torch holds it as the default device's context
            torch.set_default_device(None)
        while torch._C._len_torch_function_stack() > len(before["modes"]):
            torch._C._pop_torch_function_stack()
    for device, was, is_ in zip(_AUTOCAST, before["autocast"], now["autocast"], strict=True):
        if was != is_:
            changed.append(f"torch.autocast({device!r}, dtype={is_[1]}) entered and never exited"
                           if is_[0] else f"torch.set_autocast_dtype({device!r}, {is_[1]})")  # fmt: skip
            torch.set_autocast_enabled(device, was[0])
            torch.set_autocast_dtype(device, was[1])
    if now["nesting"] > before["nesting"]:  # its cache of cast weights, never cleared
        for _ in range(now["nesting"] - before["nesting"]):
            torch.autocast_decrement_nesting()
        torch.clear_autocast_cache()
    if now["inference"] and not before["inference"]:
        changed.append("torch.inference_mode() entered and never exited")
        _UNDONE.append(torch._C._InferenceMode(False))  # kept: its end would switch it back on
    return changed


_UNDONE: list = []  # the guards that switched off an inference mode an answer left entered


def replaced() -> list[tuple[object, str, str]]:
    """torch's functions (of :data:`_OWNERS`) that are the answer's own: ``(owner, name, its
    words)``, ``torch.linalg.matrix_norm (_mine)``; assigned into torch by the answer's code."""
    found = []
    for where, owner in _OWNERS.items():
        for name, value in list(vars(owner).items()):
            # type(), not isinstance(): an object's __class__ may warn when read (a deprecated
            # alias, torch.distributed.reduce_op)
            if type(value) in (staticmethod, classmethod, types.MethodType):
                value = value.__func__
            if type(value) is not types.FunctionType:
                continue
            code = value.__code__
            if answers(code.co_filename):
                found.append((owner, name, f"{where}.{name} ({value.__name__})"))
    return found


def replaced_by() -> list[str]:
    """:func:`replaced`'s words."""
    return [words for _, _, words in replaced()]


def _replaced_hint(replaced: list[str]) -> str:
    return (
        f"your code replaced torch's own {', '.join(replaced)}: an assignment into torch "
        "changes it for the whole process, so every caller, torch's own code and the checker's "
        "included, now runs yours. Call your function by its own name instead"
    )


def defaults() -> dict:
    """torch's process-wide defaults now, for :func:`defaults_put_back`."""
    return {
        "anomaly": (torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled()),
        "device": torch.get_default_device(),
        "dtype": torch.get_default_dtype(),
        "deterministic": torch.are_deterministic_algorithms_enabled(),
        "precision": torch.get_float32_matmul_precision(),
        "grad": torch.is_grad_enabled(),
    }


def defaults_put_back(before: dict) -> list[str]:
    """torch's defaults that differ from ``before`` (:func:`defaults`), as the code that
    set them; each put back as it was."""
    now, changed = defaults(), []
    if now["anomaly"] != before["anomaly"]:
        changed.append(f"torch.autograd.set_detect_anomaly({now['anomaly'][0]})")
        torch.set_anomaly_enabled(*before["anomaly"])
    if now["device"] != (device := before["device"]):
        changed.append(f"torch.set_default_device({str(now['device'])!r})")
        torch.set_default_device(None if device.type == "cpu" else device)
    if now["dtype"] != before["dtype"]:
        changed.append(f"torch.set_default_dtype({now['dtype']})")
        torch.set_default_dtype(before["dtype"])
    if now["deterministic"] != before["deterministic"]:
        changed.append(f"torch.use_deterministic_algorithms({now['deterministic']})")
        torch.use_deterministic_algorithms(before["deterministic"])
    if (mode := now["precision"]) != before["precision"]:
        tf32 = " (or torch.backends.cuda.matmul.allow_tf32 = True)" * (mode == "high")
        changed.append(f"torch.set_float32_matmul_precision({mode!r}){tf32}")
        torch.set_float32_matmul_precision(before["precision"])
    if now["grad"] != before["grad"]:
        changed.append(f"torch.set_grad_enabled({now['grad']})")
        torch.set_grad_enabled(before["grad"])
    return changed


@contextmanager
def defaults_kept(what: str) -> Iterator[None]:
    """Fail if the block leaves a process-wide default of torch changed; restore it either way.

    ``torch.set_default_device``, ``set_default_dtype``, ``set_grad_enabled``,
    ``use_deterministic_algorithms``, ``set_float32_matmul_precision`` (``allow_tf32``) and
    ``torch.autograd.set_detect_anomaly`` called as functions last beyond the answer: every
    tensor made afterwards, the caller's and the checker's too, follows them; and the other
    settings of :func:`settings`. torch's functions replaced by the answer's are named as the
    block starts, before the checker runs anything (its references would run them too).
    """
    if replaced := replaced_by():
        raise CheckFailed(_replaced_hint(replaced))
    kept, others, ended, sets = defaults(), settings(), False, _ThreadSets()
    try:
        with patched(*sets.changes), reseeds_named(what, answers_only=True):
            yield
        ended = True
    finally:
        changed = defaults_put_back(kept)  # either way, then the rest (a default device's mode)
        left = left_changed(others)
        if sets.left is not None and not any("set_num_threads" in c for c in left):
            left.append(f"torch.set_num_threads({sets.left})")  # the count it had already
        changed += [c for c in left if c.startswith("torch.set_default_device(")]  # a default
        left = [c for c in left if c not in changed]
        if left and ended and not changed:
            raise CheckFailed(state_left_hint(what, left))
        if changed:
            raise CheckFailed(
                f"{what} leaves a process-wide default of torch changed "
                f"({', '.join(changed + left)}): "
                "every tensor made (or product computed) afterwards anywhere in the program, the "
                "caller's too, follows "
                f"it. {_remedy(changed[0])}"
            )


def _remedy(setting: str) -> str:
    """How to leave ``setting`` (a process-wide default of torch) as the caller had it."""
    if setting.startswith(("torch.set_default_device", "torch.set_default_dtype")):
        return (
            "Keep the change inside your function: device= or dtype= on the tensors you make, "
            "or a with-block that undoes it when it ends (with torch.device(device):)"
        )
    if setting.startswith("torch.set_grad_enabled"):
        return (
            "Keep the change inside your function: a with-block that undoes it when it ends "
            "(with torch.no_grad():)"
        )
    return (
        "Read the setting before you change it, and set it back before you return "
        "(try/finally), so that the caller's stays as it was"
    )
