"""Checker of chapter 9's ``09.checkpoint``: activation checkpointing of a stack of blocks.

The answer is ``checkpointed_forward(blocks, x, segments) -> out``: the blocks (an
``nn.ModuleList``) applied in order to ``x``, cut into ``segments`` segments, each run
under ``torch.utils.checkpoint.checkpoint(..., use_reentrant=False)``; the last segment
may run without one (as ``checkpoint_sequential`` does). The checker calls backward itself.

Each block logs its forward calls, in the forward pass and in backward (where a
checkpointed segment is recomputed), so the checks see what ran when:

* the output and the gradients (parameters, and the input where it needs one) equal
  those of the plain forward;
* each block ran once in the forward pass, and at most once more in backward;
* at least ``N - ceil(N / S)`` blocks were recomputed, in ``S`` or ``S - 1`` segments of
  at most ``ceil(N / S)`` blocks (not the whole model as one, not one per block), also
  for 10 blocks in 4, where the usual splits differ; ``checkpoint_sequential``'s own split
  (``S - 1`` segments of ``N // S``, the remainder unchecked) passes too, as the prompt
  names it;
* the bytes saved for backward, parameters excluded (:func:`d2lgpu.memory.saved_for_backward`),
  stay within ``S`` segment inputs plus one segment's activations, both measured here.
"""

from __future__ import annotations

import copy
import math
import sys
import types

import torch
from torch import nn

from ..memory import format_bytes, saved_for_backward
from ._kit import Tolerance, close
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_checkpoint", "CASES", "SPLIT_CASES"]

# (blocks, segments, whether the input needs a gradient)
CASES = [(8, 4, False), (10, 3, True), (6, 6, False)]
# Where torch.chunk (3, 3, 3, 1), torch.tensor_split (3, 3, 2, 2) and checkpoint_sequential
# (2, 2, 2 and an unchecked 4) cut differently, so that a checkpointed last segment given the
# remainder (2, 2, 2, 4) shows. Checked after CASES, and not listed in the report, which
# names CASES.
SPLIT_CASES = [(10, 4, False)]
TOLERANCE = Tolerance(rtol=1e-4, atol=1e-6)  # outputs and gradients, against the plain run
WIDTH, ROWS = 8, 5


def _in_reentrant_checkpoint() -> bool:
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "forward" and code.co_filename.endswith("checkpoint.py"):
            return True  # CheckpointFunction.forward: use_reentrant=True
        frame = frame.f_back
    return False


class LoggedBlock(nn.Module):
    """``x + W2 tanh(W1 x)``, logging ``(index, phase, grad enabled, reentrant)`` per call."""

    def __init__(self, index: int, log: list, phase: list):
        super().__init__()
        self.index, self._log, self._phase = index, log, phase
        self.inner = nn.Sequential(
            nn.Linear(WIDTH, 2 * WIDTH), nn.Tanh(), nn.Linear(2 * WIDTH, WIDTH)
        )

    def forward(self, h):
        entry = (self.index, self._phase[0], torch.is_grad_enabled(), _in_reentrant_checkpoint())
        self._log.append(entry)
        return h + self.inner(h)


def _per_block_bytes() -> int:
    block = LoggedBlock(0, [], ["forward"])
    with saved_for_backward(exclude=block.parameters()) as saved:
        block(torch.randn(ROWS, WIDTH, requires_grad=True))
    return saved.bytes


def _reference(blocks, x, weight):
    blocks, x = copy.deepcopy(blocks), x.detach().clone().requires_grad_(x.requires_grad)
    for b in blocks:
        b._log, b._phase = [], ["forward"]
    out = x
    for b in blocks:
        out = b(out)
    (out * weight).sum().backward()
    return out.detach(), [p.grad for p in blocks.parameters()], x.grad


def _forward_once(log, n, where) -> None:
    counts = [sum(1 for e in log if e[0] == i and e[1] == "forward") for i in range(n)]
    never = [i for i, c in enumerate(counts) if c == 0]
    if never:
        raise CheckFailed(
            f"for {where}, block(s) {never} never ran: the segments must cover every block; "
            "with n_blocks not a multiple of segments, the last segment takes the remainder "
            "(or use sizes that differ by at most one)"
        )
    twice = [i for i, c in enumerate(counts) if c > 1]
    if twice:
        raise CheckFailed(
            f"for {where}, block(s) {twice} ran {max(counts)} times in the forward pass: run "
            "each block once (checkpoint recomputes in backward by itself)"
        )


def _no_graph_hint(log, where) -> str:
    if any(e[3] for e in log):
        return (
            f"for {where}, the output has no graph (its input needed no gradient): you used "
            "checkpoint with use_reentrant=True (the default when you leave it out). Pass "
            "use_reentrant=False"
        )
    if any(not e[2] for e in log):
        return (
            f"for {where}, the blocks ran under torch.no_grad(), so nothing can be trained: "
            "checkpoint keeps the graph and recomputes in backward instead"
        )
    return f"for {where}, the output has no graph: return the blocks' output, not a detached copy"


def _backward_segments(log, where) -> list[list[int]]:
    """The recomputed segments, in the order backward ran them (each a run of blocks)."""
    again = [e[0] for e in log if e[1] == "backward"]
    repeated = sorted({i for i in again if again.count(i) > 1})
    if repeated:
        raise CheckFailed(
            f"for {where}, backward recomputed block(s) {repeated} more than once, and other "
            "segments not at all: the function you checkpoint must fix its blocks when it is "
            "made. A lambda in a loop sees the loop variable's last value when backward calls "
            "it; bind it when it is made (functools.partial, or a default argument)"
        )
    runs: list[list[int]] = []
    for i in again:
        if runs and i == runs[-1][-1] + 1:
            runs[-1].append(i)
        else:
            runs.append([i])
    return runs


def _check_grads(blocks, x, ref, log, where) -> None:
    missing = sorted({i for i, b in enumerate(blocks) for p in b.parameters() if p.grad is None})
    if missing and any(e[3] for e in log):
        raise CheckFailed(
            f"for {where}, block(s) {missing} got no gradient, and they ran in a reentrant "
            "checkpoint: checkpoint and checkpoint_sequential use use_reentrant=True when you "
            "leave it out, and a reentrant segment whose input needs no gradient gives an "
            "output without a graph. Pass use_reentrant=False (if you also .detach() between "
            "segments, stop that too: it cuts the graph the same way)"
        )
    if missing:
        raise CheckFailed(
            f"for {where}, block(s) {missing} got no gradient: the graph was cut between "
            "segments (.detach() or .data); pass each segment's output on as it is"
        )
    if x.requires_grad and x.grad is None:
        raise CheckFailed(
            f"for {where}, the input x needs a gradient here and got none: the graph was cut "
            "before the first block (x.detach() or x.data); pass x to the first segment as it is"
        )
    grads = [p.grad for p in blocks.parameters()]
    wrong = not all(close(g, r, TOLERANCE) for g, r in zip(grads, ref[1], strict=True))
    if x.requires_grad and not close(x.grad, ref[2], TOLERANCE):
        wrong = True
    if wrong:
        raise CheckFailed(f"for {where}, the gradients differ from the plain forward's")


def _sequential_split(runs, n, s) -> bool:
    """Whether ``runs`` is checkpoint_sequential's split: ``S - 1`` checkpointed segments of
    ``N // S`` blocks, the remainder run without a checkpoint. Where ``N`` is not a multiple
    of ``S`` its last segment is longer than ``ceil(N / S)``; the prompt names it, so it
    passes, and its longer last segment counts in the bound on the bytes kept."""
    return len(runs) == s - 1 and all(len(r) == n // s for r in runs)


def _check_segments(runs, n, s, where) -> int:
    longest = math.ceil(n / s)
    recomputed = sum(len(r) for r in runs)
    if recomputed == 0:
        raise CheckFailed(
            f"for {where}, no block was recomputed during backward: nothing was checkpointed. "
            "Run each segment through torch.utils.checkpoint.checkpoint(fn, h, use_reentrant=False)"
        )
    if len(runs) == 1 and s > 1 and len(runs[0]) == n:
        raise CheckFailed(
            f"for {where}, the whole model was checkpointed as one segment: in backward all {n} "
            f"blocks are recomputed at once and their activations are alive together again. "
            f"Cut it into {s} segments"
        )
    if len(runs) not in (s, s - 1) or max(len(r) for r in runs) > longest:
        raise CheckFailed(
            f"for {where}, backward recomputed {len(runs)} segment(s) of {[len(r) for r in runs]} "
            f"blocks: cut the {n} blocks into {s} segments of at most {longest} and checkpoint "
            "each (the last one may run without)"
        )
    if recomputed < n - longest and not _sequential_split(runs, n, s):
        raise CheckFailed(f"for {where}, only {recomputed} of {n} blocks were checkpointed")
    return recomputed


def _one_case(answer, n, s, needs_grad, seed) -> None:
    where = f"{n} blocks in {s} segments"
    log: list = []
    phase = ["forward"]
    torch.manual_seed(seed)
    blocks = nn.ModuleList(LoggedBlock(i, log, phase) for i in range(n))
    x = torch.randn(ROWS, WIDTH).requires_grad_(needs_grad)
    weight = torch.randn(ROWS, WIDTH)
    ref = _reference(blocks, x, weight)
    with saved_for_backward(exclude=blocks.parameters()) as saved:
        out = answer(blocks, x, s)
    if not isinstance(out, torch.Tensor) or out.shape != ref[0].shape:
        got = tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
        raise CheckFailed(
            f"for {where}, checkpointed_forward returned {got}: return the output tensor"
        )
    _forward_once(log, n, where)
    if not torch.allclose(out.detach(), ref[0], TOLERANCE.rtol, TOLERANCE.atol):
        raise CheckFailed(f"for {where}, the output differs from the blocks applied in order")
    if out.grad_fn is None:
        raise CheckFailed(_no_graph_hint(log, where))
    phase[0] = "backward"
    (out * weight).sum().backward()
    runs = _backward_segments(log, where)
    _check_grads(blocks, x, ref, log, where)
    recomputed = _check_segments(runs, n, s, where)
    kept = max(math.ceil(n / s), n - recomputed)  # one segment's activations, or the last's
    bound = s * x.nbytes + kept * _per_block_bytes()
    if saved.bytes > bound:
        raise CheckFailed(
            f"for {where}, {format_bytes(saved.bytes)} were saved for backward, more than the "
            f"{format_bytes(bound)} of {s} segment inputs and one segment's activations: "
            "something else keeps activations (a forward outside the checkpoints?)"
        )


@one_cpu_thread
def check_checkpoint(answer, passed: list[str]) -> None:
    """``09.checkpoint``: see the module docstring."""
    if not callable(answer):
        raise CheckFailed(
            f"pass the function itself, checkpointed_forward, not a {type(answer).__name__}"
        )
    for seed, (n, s, needs_grad) in enumerate(CASES + SPLIT_CASES):  # check() restores the
        _one_case(answer, n, s, needs_grad, seed)  # learner's generator
    cases = ", ".join(f"{n} blocks in {s}" for n, s, _ in CASES)
    passed.append(f"output and gradients equal the plain forward's ({cases} segments)")
    passed.append("each block ran once in the forward pass, at most once more in backward")
    passed.append("backward recomputed S (or S - 1) segments of at most ceil(N / S) blocks")
    passed.append("bytes saved for backward within S segment inputs + one segment's activations")
