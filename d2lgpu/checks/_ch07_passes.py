"""What a Triton answer costs besides its one kernel: launches, grids, and torch's own passes.

Both exercises of chapter 7 ask for one kernel that reads its inputs once and
writes its output once. While the answer runs (:func:`watched_torch_ops`), the
torch operations the learner's own lines run are watched, those Triton makes
while it copies a launch's tensors left out; :func:`ops_hint` names the first
that reads or writes a tensor as large as the input (a computation, a dtype cast,
a fill, a copy of an input already contiguous); :func:`launch_hint` a second
launch in one call, and a large input run as a single program; :func:`device_hint` a
tensor made for the kernel with no ``device=`` (the CPU's, whatever x's device), with one
written in (``device="cpu"``), or made on the CPU and then moved. What costs nothing is
allowed: allocating (``torch.empty``, ``empty_like``, ``new_empty``), views and no-ops that
return their argument's memory (``view``, ``t``, ``x.contiguous()`` of a contiguous x,
``.to`` of the same dtype), and a contiguous copy of a tensor that is not.

The checkers ask for these only once the values are right (:mod:`.ch07_triton`).
Torch is all this needs; Triton is not imported here.
"""

from __future__ import annotations

import contextlib
import linecache
import re
import sys
from dataclasses import dataclass, field

import torch
from torch.overrides import TorchFunctionMode

from ._ch07_interpreter import _tensors  # the tensors in a launch's (nested) arguments
from ._util import describe_frame, learner_line

__all__ = ["Call", "device_hint", "launch_hint", "ops_hint", "watched_torch_ops"]

_ALLOCATE = {"empty", "empty_like", "empty_strided", "new_empty", "new_empty_strided"}
_FILL = {"zeros", "ones", "full", "zeros_like", "ones_like", "full_like", "new_zeros"}
_FILL |= {"new_ones", "new_full", "zero_", "fill_"}
_CAST = {"to", "float", "half", "double", "bfloat16", "type", "type_as"}
_COPY = {"contiguous", "reshape", "flatten", "ravel", "clone", "copy_", "view_as", "detach"}
_IN_PLACE = {"__setitem__", "__iadd__", "__isub__", "__imul__", "__itruediv__"}
_SMALL = 16  # a tensor of fewer elements costs nothing worth naming (the 1 x 1 cases)
# Factories whose tensor is made on the default device (the CPU) unless given device=.
_PLACED = {"empty", "zeros", "ones", "full", "empty_strided"}
# A device written into the learner's call: right only on the machine it was written for.
_WRITTEN = re.compile(r"device\s*=\s*(['\"]|torch\.device\(\s*['\"]|torch\.get_default_device\()")


@dataclass
class Call:
    """One call of the answer: the launches it made, their grids, the costly torch ops."""

    launches: int = 0
    grids: list = field(default_factory=list)
    ops: list = field(default_factory=list)  # (name, kind, the learner's line)
    # (name, the learner's line, tensor, "" for no device= or "written" for one written in)
    unplaced: list = field(default_factory=list)
    moved: list = field(default_factory=list)  # tensors given to .to(a device) or .cuda()


def _same_memory(a: torch.Tensor, b: torch.Tensor) -> bool:
    return a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr()


def _kind(name: str, sources: list, results: list, size: int) -> str | None:
    """What an operation ``name`` costs: None, or "fill", "cast", "copy", "compute"."""
    in_place = (name.endswith("_") and not name.startswith("__")) or name in _IN_PLACE
    if in_place and sources and name in _FILL:
        return "fill"  # never needed, however small: the kernel writes every element
    if in_place and sources and sources[0].numel() >= size:
        return "copy" if name == "copy_" else "compute"
    if name in _ALLOCATE:
        return None
    for r in results:
        if any(_same_memory(r, s) for s in sources):
            continue  # a view, or a no-op that returns its argument
        if name in _FILL:
            return "fill"
        if r.numel() < size and not any(s.numel() >= size for s in sources):
            continue  # too small to cost a pass worth naming (a reduction of x reads all of it)
        first = sources[0] if sources else None
        if first is not None and name in _CAST and r.dtype != first.dtype:
            return "cast"
        if first is not None and name in _COPY | _CAST:
            # a contiguous copy of a tensor that is not contiguous is what the prompt asks
            if r.is_contiguous() and not first.is_contiguous() and r.dtype == first.dtype:
                continue
            return "copy"
        return "compute"
    return None


def _statement(line) -> str:
    """The learner's statement from ``line`` on: its lines until the brackets close (6 at most)."""
    text = ""
    for n in range(line.lineno, line.lineno + 6):
        text += linecache.getline(line.filename, n)
        if text.count("(") <= text.count(")"):
            break
    return text


def _moves(name: str, args, kwargs) -> bool:
    """Whether a call is ``t.to(<a device>)`` or ``t.cuda()``: a move, not a cast."""
    if not args or not isinstance(args[0], torch.Tensor):
        return False
    given = [*args[1:], kwargs.get("device")]
    to_device = any(isinstance(a, str | torch.device | torch.Tensor) for a in given)
    return name == "cuda" or (name == "to" and to_device)


class _TorchOps(TorchFunctionMode):
    def __init__(self, watch, call: Call, size: int):
        super().__init__()
        self.watch, self.call, self.size = watch, call, size

    def __torch_function__(self, func, types, args=(), kwargs=None):
        kwargs = kwargs or {}
        result = func(*args, **kwargs)
        if self.watch.launching:
            return result  # Triton's own copies
        line = learner_line(sys._getframe(1))
        name = getattr(func, "__name__", "")
        if line is not None and name in _PLACED and kwargs.get("device") is None:
            self.call.unplaced.append((name, line, result, ""))
        elif line is not None and name in _PLACED and _WRITTEN.search(_statement(line)):
            self.call.unplaced.append((name, line, result, "written"))
        if line is not None and _moves(name, args, kwargs):
            self.call.moved.append(args[0])
        if line is not None and not self.call.ops:  # the first costly one is named
            sources = list(_tensors([*args, *kwargs.values()]))
            results = list(_tensors([result]))
            kind = _kind(name, sources, results, self.size)
            if kind is not None:
                self.call.ops.append((name, kind, line))
        return result


@contextlib.contextmanager
def watched_torch_ops(watch, args):
    """Watch one call of the answer on ``args``; yields its :class:`Call`, filled on exit."""
    size = max([_SMALL, *(t.numel() for t in _tensors(args))])
    call, launches, grids = Call(), watch.launches, len(watch.grids)
    try:
        with _TorchOps(watch, call, size):
            yield call
    finally:
        call.launches = watch.launches - launches
        call.grids = watch.grids[grids:]


_WHY = {
    "compute": (
        "computed part of the result with PyTorch, outside your kernel: it reads a whole "
        "tensor (and most write one), an extra pass over memory, the one a fused kernel saves "
        "(a reduction such as a norm, a max or a check reads all of x too). Do all the "
        "arithmetic inside your kernel, on the values it loads"
    ),
    "cast": (
        "made a copy in another dtype: a cast reads and writes a whole tensor, an extra pass "
        "over memory. Pass the tensors as they are; the kernel converts what it loads "
        "(tl.load(...).to(tl.float32)) and tl.store converts to the output's dtype"
    ),
    "fill": (
        "filled a whole tensor before your kernel ran: an extra write pass, and the kernel "
        "writes every element anyway. Make the output with torch.empty (or empty_like) and "
        "let the kernel store every element, masked only by offsets < n"
    ),
    "copy": (
        "copied a tensor that is already contiguous: an extra read and write of it. Call "
        "x.contiguous(), which returns x itself when it already is and copies only when not"
    ),
    "copy into": (
        "copied a whole tensor into another: an extra read and write, which your kernel does "
        "not need. It loads its inputs where they are (x.contiguous() where x is not) and "
        "stores into an output made with torch.empty"
    ),
}


def device_hint(call: Call, out, watch, name: str, where: str) -> str | None:
    """A tensor the kernel was given or returned, made with no device= (on the CPU whatever
    x's device): right here, where every tensor is on the CPU, and refused on a GPU."""
    for op, line, made, how in call.unplaced:
        if not isinstance(made, torch.Tensor) or not (_same_memory(made, out) or watch.given(made)):
            continue
        if how == "written":
            return (
                f"for {where}, {name} made a tensor for your kernel with torch.{op} and a device "
                f"written in ({describe_frame(line)}): it is there whatever x's device, so on "
                "another machine (a GPU, or another of its GPUs) your kernel gets it beside x's "
                "on another device. Make it on x's device: device=x.device, or "
                "torch.empty_like of a contiguous x"
            )
        if any(_same_memory(made, t) for t in call.moved):  # .to(x.device) after: a copy
            return (
                f"for {where}, {name} made a tensor for your kernel with torch.{op} "
                f"({describe_frame(line)}) and no device=, then moved it: on a GPU it is made "
                "on the CPU and copied over, a pass over memory for values your kernel "
                "overwrites. Make it on x's device at once: device=x.device, or "
                "torch.empty_like of a contiguous x"
            )
        return (
            f"for {where}, {name} made a tensor for your kernel with torch.{op} "
            f"({describe_frame(line)}) and no device=, so it is on the CPU whatever x's "
            "device: on a GPU your kernel gets a CPU tensor beside x's, which Triton refuses "
            '("cannot be accessed from Triton (cpu tensor?)"). Make it on x\'s device: '
            "device=x.device, or torch.empty_like of a contiguous x"
        )
    return None


def ops_hint(call: Call, name: str, where: str) -> str | None:
    """The first torch operation of the learner's that cost a pass over memory, as a hint."""
    if not call.ops:
        return None
    op, kind, line = call.ops[0]
    why = _WHY["copy into" if op == "copy_" else kind]
    return f"for {where}, {name} ran `{op}` ({describe_frame(line)}), which {why}"


def launch_hint(call: Call, name: str, where: str, n: int, unit: str) -> str | None:
    """More than one launch in a call, or ``n`` elements (``unit``) run as one program."""
    if call.launches > 1:
        loop = unit == "row" and call.launches == n and all(g == (1, 1, 1) for g in call.grids)
        parts = [gx * gy * gz for gx, gy, gz in call.grids]
        if unit == "row" and not loop and sum(parts) == n:  # the rows in batches, one each
            return (
                f"for {where}, {name} launched the kernel {call.launches} times in one call, "
                f"over {', '.join(map(str, parts))} rows: each launch costs its own overhead, "
                f"and one grid holds every row. Launch once, over a grid of ({n},) programs, "
                "x.shape[0] of them"
            )
        twice = (
            "a relu kernel then a multiply kernel move 5 n floats, one fused kernel 3 n"
            if unit == "element"
            else "a kernel for the sums of squares then one for the division read x twice"
        )
        return f"for {where}, {name} launched {call.launches} kernels in one call: " + (
            "a Python loop with one launch per row, each a grid of one program. Launch the "
            "kernel once, with a grid of n_rows programs (kernel[(n_rows,)]), and let program "
            "tl.program_id(0) handle its row"
            if loop
            else "each launch reads its inputs from memory and writes its results back, so a "
            f"second kernel adds a pass over memory ({twice}). Fuse them: one kernel, "
            "launched once, loads the inputs, computes and stores the result"
        )
    programs = [gx * gy * gz for gx, gy, gz in call.grids]
    if unit == "row" and programs != [n]:
        return (
            f"for {where}, {name} ran its {n} rows over a grid of {programs[0]} program(s): the "
            "exercise asks for one program per row, a grid of (x.shape[0],), each loading its "
            "row once. A grid of fewer programs looping over the rows leaves multiprocessors "
            "idle; launch kernel[(n_rows,)] and let tl.program_id(0) pick the row"
        )
    # More than 4096: a fixed BLOCK of 4096 runs n = 4096 as one program, rightly.
    if unit == "element" and n > 4096 and programs == [1]:
        return (
            f"for {where}, {name} ran all {n} elements as one program (a grid of 1: a block as "
            "long as the tensor, or one program looping over the blocks): one program runs on "
            "one of the GPU's multiprocessors while the others idle, and Triton refuses a block "
            "of more than 2**20 elements. Use a fixed BLOCK (say 1024) and a grid of "
            "triton.cdiv(n, BLOCK) programs"
        )
    return None
