"""How torch.library operators travel to ranks a fork server starts (:mod:`d2lgpu._rank_start`).

A rank that a fork server starts imports torch afresh, and pickles what it runs with
cloudpickle. Two things stop an operator on the way:

- the dispatcher's handles (``torch.ops.aten.add``, ``torch.ops.aten.add.Tensor``) cannot
  be pickled at all; they travel by their names, and the rank looks the names up;
- an operator the reader defined in a cell (``@torch.library.custom_op``) is not registered
  in the rank. It travels by its definition: its name, its schema and the functions
  registered on it (kernels, fake, autograd, vmap, autocast), which the rank registers
  again before it runs anything. Every such operator travels with each payload
  (:func:`defined_here`), so that code that reaches one only as ``torch.ops.ns.name``
  finds it too.

An operator a package defines (its function importable by name) travels by its name;
:func:`from_a_cell` tells which, and :mod:`d2lgpu._rank_start` asks it of a cached function too.
"""

from __future__ import annotations

import importlib
import sys
import weakref
from typing import Any

import torch
from cloudpickle import cloudpickle as _cloudpickle
from torch._library.custom_ops import OPDEFS, CustomOpDef

__all__ = ["defined_here", "from_a_cell", "op_reduction"]

_rebuilt: weakref.WeakSet = weakref.WeakSet()  # operators this process registered from a payload


def from_a_cell(fn) -> bool:
    """Whether ``fn`` must travel by value: it was defined in a cell, or in a module another
    process cannot import by its name. Judged by its module, not by looking ``fn`` up there:
    a decorated function (``@functools.cache``, ``@custom_op``) is not what its module's
    name holds."""
    name = getattr(fn, "__module__", None)
    module = sys.modules.get(name) if isinstance(name, str) else None
    return (
        module is None or name == "__main__" or not _cloudpickle._should_pickle_by_reference(module)
    )


def defined_here() -> tuple:
    """The custom operators defined in this process's cells, oldest first."""
    return tuple(op for op in list(OPDEFS.values()) if from_a_cell(op._init_fn))


def op_at(qualname: str, overload: str | None = None):
    """``torch.ops``' handle to ``qualname`` (``"aten::add"``), or to its ``overload``."""
    namespace, name = qualname.split("::", 1)
    packet = getattr(getattr(torch.ops, namespace), name)
    return packet if overload is None else getattr(packet, overload)


def custom_op_named(module: str, qualname: str):
    """The custom operator ``qualname`` that importing ``module`` defines."""
    importlib.import_module(module)
    return OPDEFS[qualname]


def custom_op_at(namespace: str, name: str, schema: str, tags):
    """The custom operator ``namespace::name``: the one registered here, else a new one with
    ``schema``, whose functions :func:`fill` registers."""
    found = OPDEFS.get(f"{namespace}::{name}")
    if found is not None:
        return found
    op = CustomOpDef(namespace, name, schema, _not_filled, tags)
    _rebuilt.add(op)
    return op


def _not_filled(*args, **kwargs):
    raise RuntimeError("a custom operator was called before its functions arrived")


def _unwrapped(kernel):
    """The reader's kernel inside the wrappers ``register_kernel`` stores (torch's own
    functions, which choose between it and the operator's function), or ``kernel`` itself."""
    while getattr(kernel, "__module__", "").startswith("torch.") and kernel.__closure__:
        names = kernel.__code__.co_freevars
        if "fn" not in names:
            break
        kernel = kernel.__closure__[names.index("fn")].cell_contents
    return kernel


def fill(op, state: dict) -> None:
    """Register on ``op`` the functions ``state`` names, where this process built ``op``."""
    if op not in _rebuilt:
        return  # registered here already, functions and all
    _rebuilt.discard(op)
    op._init_fn = state["init"]
    for device_type, kernel in state["kernels"].items():
        op.register_kernel(device_type, kernel)
    if state["fake"] is not None:
        op.register_fake(state["fake"])
    if state["backward"] is not None:
        op.register_autograd(state["backward"], setup_context=state["setup_context"])
    for mode, function in state["dispatch"].items():
        op.register_torch_dispatch(mode, function)
    if state["vmap"] is not None:
        op.register_vmap(state["vmap"])
    for device_type, dtype in state["autocast"].items():
        if dtype is not None:
            op.register_autocast(device_type, dtype)


def _state(op) -> dict:
    return {
        "init": op._init_fn,
        "kernels": {d: _unwrapped(k) for d, k in getattr(op, "_backend_fns", {}).items()},
        "fake": getattr(op, "_abstract_fn", None),
        "backward": getattr(op, "_backward_fn", None),
        "setup_context": getattr(op, "_setup_context_fn", None),
        "dispatch": dict(getattr(op, "_torch_dispatch_fns", {})),
        "vmap": getattr(op, "_vmap_fn", None),
        "autocast": _autocasts(op),
    }


def _autocasts(op) -> dict:
    """The dtype ``register_autocast`` noted for each device type: a dict in newer torch, an
    attribute for each of the CPU and CUDA in older ones (torch 2.11)."""
    found = dict(getattr(op, "_autocast_dtype", {}))
    for device_type in ("cpu", "cuda"):
        if found.get(device_type) is None:
            found[device_type] = getattr(op, f"_autocast_{device_type}_dtype", None)
    return {device_type: dtype for device_type, dtype in found.items() if dtype is not None}


def op_reduction(obj) -> Any:
    """How cloudpickle should send ``obj`` if it is an operator (a reduce tuple), else None."""
    if isinstance(obj, torch._ops.OpOverloadPacket):
        return op_at, (obj._qualified_op_name,)
    if isinstance(obj, torch._ops.OpOverload):
        return op_at, (obj._schema.name, obj._overloadname)
    if not isinstance(obj, CustomOpDef):
        return None
    if not from_a_cell(obj._init_fn):
        return custom_op_named, (obj._init_fn.__module__, obj._qualname)
    # the functions go as state, after the operator is in pickle's memo: a backward that
    # calls the operator itself, or another that calls this one, sends each once
    args = (obj._namespace, obj._name, str(obj._schema), tuple(obj._tags))
    return custom_op_at, args, _state(obj), None, None, fill
