"""Checker of chapter 9's ``09.checkpoint``: activation checkpointing of a stack of blocks.

The answer is ``checkpointed_forward(blocks, x, segments) -> out``: the blocks (an
``nn.ModuleList``) applied in order to ``x``, cut into ``segments`` segments, each run
under ``torch.utils.checkpoint.checkpoint(..., use_reentrant=False)``; the last segment
may run without one (as ``checkpoint_sequential`` does). The checker calls backward itself.

Each block logs its forward calls, in the forward pass and in backward (where a
checkpointed segment is recomputed), and the end of its backward, so the checks see what
ran when (:mod:`._ch09_ckpt_log`):

* around the segments (:mod:`._ch09_ckpt_rules`): the blocks called as ``block(h)``, with
  their hooks; the caller's ``x`` left as it was; the random generator advanced as the
  plain forward advances it, not restored; no ``gc.collect`` nor ``empty_cache``;
* no block of an earlier case runs in a later one (segment functions kept between calls
  run the blocks they were made with): the cases come one after the other, with new
  blocks each time, the last as many as the first;
* the output and the gradients (parameters, and the input where it needs one) equal
  those of the plain forward, also with dropout in the blocks, where a recomputation
  that draws other random numbers (``preserve_rng_state=False``) gives other gradients;
* each block ran once in the forward pass, and at most once more in backward (an outer
  checkpoint around the segments, which recomputes the whole model first, named);
* at least ``N - ceil(N / S)`` blocks were recomputed, in ``S`` segments, or ``S - 1``
  and an unchecked last one, of at most ``ceil(N / S)`` blocks (not the whole model as
  one, not one per block, not fewer segments than asked), also for 10, 9 and 11 blocks
  in 4, where ``torch.chunk``, ``torch.tensor_split`` and ``checkpoint_sequential`` cut
  differently; ``checkpoint_sequential``'s own split (``S - 1`` segments of ``N // S``,
  the remainder unchecked) passes too, as the prompt names it;
* during backward, at most one segment's activations alive at once (or the unchecked
  last segment's): a block's live from its run that backward uses, the forward pass or
  its recomputation, until its backward has run, so a first segment left unchecked,
  whose activations wait for the end of backward, shows;
* the bytes saved for backward, parameters excluded (:func:`d2lgpu.memory.saved_for_backward`),
  stay within ``S`` segment inputs plus one segment's activations, both measured here;
  a reentrant checkpoint, which the prompt rules out, is named even where its gradients
  are right; what a selective checkpoint's policy keeps, and block outputs still held
  after backward, which these counts do not see, are named (:mod:`._ch09_ckpt_log`).
"""

from __future__ import annotations

import copy
import math

import torch
from torch import nn

from ..memory import format_bytes, saved_for_backward
from ._ch09_ckpt_log import (
    WIDTH,
    LoggedBlock,
    backward_segments,
    check_alive,
    check_kept_in_segments,
    check_output,
    check_selective,
    forward_once,
    no_graph_hint,
    outputs_alive,
    peak_blocks,
)
from ._ch09_ckpt_rules import (
    check_backward_random_state,
    check_blocks_left,
    check_called,
    check_enough_checkpointed,
    check_fresh,
    check_grads_left,
    check_housekeeping,
    check_input_left,
    check_own_leaf,
    check_random_state,
    housekeeping,
    own_leaf,
    recomputed_alike,
    segments_named,
)
from ._kit import Tolerance, close
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_checkpoint", "CASES", "SPLIT_CASES", "LATER_CASES", "LoggedBlock"]

# (blocks, segments, whether the input needs a gradient)
CASES = [(8, 4, False), (10, 3, True), (6, 6, False)]
# Where torch.chunk (3, 3, 3, 1), torch.tensor_split (3, 3, 2, 2) and checkpoint_sequential
# (2, 2, 2 and an unchecked 4) cut differently, so that a checkpointed last segment given the
# remainder (2, 2, 2, 4) shows. Checked after CASES, and not listed in the report, which
# names CASES.
SPLIT_CASES = [(10, 4, False)]
# Then (blocks, segments, input needs a gradient, dropout): 9 in 4, where torch.chunk and a
# loop in steps of ceil(9 / 4) give 3 segments, not 4 (3, 3, 3); 11 in 4, where
# checkpoint_sequential's unchecked last segment takes 5 blocks; and blocks with dropout,
# whose recomputation must draw the forward's random numbers, as many blocks and segments as
# the first case, so that segment functions kept from an earlier call run that call's blocks.
LATER_CASES: list[tuple] = [(9, 4, False, 0.0), (11, 4, True, 0.0), (8, 4, True, 0.5)]
LATER_CASES.append((6, 3, True, 0.0, "eval"))
# blocks of different sizes: segments are counted in blocks (at most ceil(N / S) each), not
# balanced by parameters, which a first block 8 times as wide as the others tells apart
LATER_CASES.append((8, 4, False, 0.0, "wide"))
# the ModuleList of the case before, refilled with new blocks: what is kept by id(blocks) shows
LATER_CASES.append((8, 4, False, 0.0, "refilled"))
TOLERANCE = Tolerance(rtol=1e-4, atol=1e-6)  # outputs and gradients, against the plain run
ROWS = 5


def _per_block_bytes(p: float = 0.0, hidden: int = 2 * WIDTH) -> int:
    block = LoggedBlock(0, [], ["forward"], p, hidden)
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


def _check_grads(blocks, x, ref, log, where, p: float) -> None:
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
    if wrong and p:
        raise CheckFailed(
            f"for {where}, the gradients differ from the plain forward's: the recomputation in backward drew other random numbers (other "
            "dropout masks) than the forward did. Leave checkpoint's preserve_rng_state at "
            "True, its default, which replays the forward's random state"
        )
    if wrong:
        raise CheckFailed(f"for {where}, the gradients differ from the plain forward's")


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
    sizes = [len(r) for r in runs]
    if len(runs) not in (s, s - 1) or max(sizes) > longest:
        what = segments_named(runs, n, s)
        raise CheckFailed(
            f"for {where}, backward recomputed {len(runs)} segment(s) of {sizes} blocks ({what}): "
            f"cut the {n} blocks into {s} segments of at most {longest} and checkpoint each (the "
            "last one may run without)"
        )
    check_enough_checkpointed(runs, n, s, where)
    if len(runs) == s - 1 and recomputed == n:
        raise CheckFailed(
            f"for {where}, backward recomputed {len(runs)} segments of "
            f"{[len(r) for r in runs]} blocks, every block checkpointed: that is {len(runs)} "
            f"segments, not {s}. torch.chunk, and a loop in steps of ceil(n / segments), can "
            f"give fewer pieces than asked ({n} in {s}: "
            f"{', '.join(str(len(c)) for c in torch.arange(n).chunk(s))}); torch.tensor_split "
            f"gives exactly {s} "
            f"({', '.join(str(len(c)) for c in torch.arange(n).tensor_split(s))})"
        )
    return recomputed


def _check_peak(log, n, s, recomputed, where) -> None:
    """During backward, at most one segment's activations alive at once (or the unchecked
    last segment's, where it is longer, as checkpoint_sequential's may be)."""
    peak, plain = peak_blocks(log)
    allowed = max(math.ceil(n / s), n - recomputed)
    if peak <= allowed:
        return
    unchecked = (
        f"block(s) {plain} ran without a checkpoint, and autograd keeps their activations "
        "until their backward, which comes last for the first blocks, while each later "
        "segment is recomputed. Leave only the last segment without a checkpoint (its "
        "backward comes first, which frees its activations first), or checkpoint every one"
        if plain and plain[-1] < n - 1
        else "a segment's activations were kept while another segment was recomputed"
    )
    raise CheckFailed(
        f"for {where}, the peak during backward held {peak} blocks' activations at once, "
        f"more than one segment's ({allowed}): {unchecked}"
    )


def _one_case(answer, n, s, needs_grad, seed, earlier, p=0.0, *mode, held: list) -> None:
    evaluating, wide = "eval" in mode, "wide" in mode  # the first block 8 times as wide
    where = (
        f"{n} blocks in {s} segments"
        + (" (with dropout)" if p else "")
        + (" (eval)" if evaluating else " (the first block 8 times as wide)" if wide else "")
        + (" (the ModuleList of the case before, refilled with new blocks)" * ("refilled" in mode))
    )
    hidden = [(16 if wide and i == 0 else 2) * WIDTH for i in range(n)]
    log: list = []
    phase = ["forward"]
    torch.manual_seed(seed)
    blocks = nn.ModuleList(LoggedBlock(i, log, phase, p, hidden[i]) for i in range(n))
    if "refilled" in mode:
        held[0]._modules.clear()
        blocks = held[0].extend(blocks)
    held[:] = [blocks]
    blocks.train(not evaluating)
    x = torch.randn(ROWS, WIDTH).requires_grad_(needs_grad)
    weight = torch.randn(ROWS, WIDTH)
    torch.manual_seed(100 + seed)  # the same dropout masks in the plain forward and the answer's
    ref = _reference(blocks, x, weight)
    rng = [torch.get_rng_state()]  # after the plain forward, before and after the answer's
    before = [len(other) for other in earlier]
    torch.manual_seed(100 + seed)
    rng.append(torch.get_rng_state())
    for q in blocks.parameters():  # the gradients a caller has accumulated so far: all ones
        q.grad = torch.ones_like(q)
    modes = [m.training for m in blocks.modules()]
    with saved_for_backward(exclude=blocks.parameters()) as saved, housekeeping() as calls:
        out = answer(blocks, x, s)
    check_blocks_left(blocks, n, modes, where)
    rng.append(torch.get_rng_state())
    check_grads_left(blocks, where)
    check_fresh(earlier, before, log, where)
    earlier.append(log)
    check_housekeeping(calls, where)
    check_input_left(x, needs_grad, where)
    if not isinstance(out, torch.Tensor) or out.shape != ref[0].shape:
        got = tuple(out.shape) if isinstance(out, torch.Tensor) else type(out).__name__
        raise CheckFailed(
            f"for {where}, checkpointed_forward returned {got}: return the output tensor"
        )
    forward_once(log, n, where, out, blocks)
    check_output(out.detach(), ref[0], TOLERANCE, blocks, not evaluating, where)
    if out.grad_fn is None:
        raise CheckFailed(no_graph_hint(log, where))
    leaf = own_leaf(out, blocks, x)  # named once backward has shown what else went wrong
    check_selective(blocks, where)
    alive = outputs_alive(blocks)  # judged once backward has shown the segments
    phase[0] = "backward"
    unmoved = torch.get_rng_state()
    with recomputed_alike(where):
        (out * weight).sum().backward()
    check_backward_random_state(unmoved, torch.get_rng_state(), where)
    runs = backward_segments(log, n, where)
    _check_grads(blocks, x, ref, log, where, p)
    if any(e[3] for e in log):
        raise CheckFailed(
            f"for {where}, the segments ran in a reentrant checkpoint (use_reentrant=True, or "
            "left out, in checkpoint or checkpoint_sequential): the exercise asks for "
            "use_reentrant=False, which needs no input that requires a gradient and frees "
            "each segment's recomputed activations as its backward goes. Pass use_reentrant=False"
        )
    check_own_leaf(leaf, where)
    check_called(blocks, where)
    check_random_state(rng[1], rng[2], rng[0], where)
    recomputed = _check_segments(runs, n, s, where)
    _check_peak(log, n, s, recomputed, where)
    kept = max(math.ceil(n / s), n - recomputed)  # one segment's activations, or the last's
    bound = s * x.nbytes + kept * _per_block_bytes(p, max(hidden))
    if saved.bytes > bound:
        raise CheckFailed(
            f"for {where}, {format_bytes(saved.bytes)} were saved for backward, more than the "
            f"{format_bytes(bound)} of {s} segment inputs and one segment's activations: "
            "something else keeps activations (a forward outside the checkpoints?)"
        )
    del out
    check_alive(blocks, where)
    check_kept_in_segments(alive, runs, where)  # held until backward only


@one_cpu_thread
def check_checkpoint(answer, passed: list[str]) -> None:
    """``09.checkpoint``: see the module docstring."""
    if not callable(answer):
        raise CheckFailed(
            f"pass the function itself, checkpointed_forward, not an object of type "
            f"{type(answer).__name__}"
        )
    earlier: list[list] = []  # the logs of the cases run so far
    held: list = []  # the case before's ModuleList
    cases: list[tuple] = [(*case, 0.0) for case in CASES + SPLIT_CASES] + LATER_CASES
    for seed, (n, s, needs_grad, p, *mode) in enumerate(cases):  # check() restores the
        _one_case(answer, n, s, needs_grad, seed, earlier, p, *mode, held=held)  # generator
    shown = ", ".join(f"{n} blocks in {s}" for n, s, _ in CASES)
    passed.append(
        f"output and gradients equal the plain forward's ({shown} segments; also 10, 9 and "
        "11 in 4, and blocks with dropout)"
    )
    passed.append("each block ran once in the forward pass, at most once more in backward")
    passed.append(
        "backward recomputed S (or S - 1, the last left unchecked) segments of at most "
        "ceil(N / S) blocks, and held at most one segment's activations at once"
    )
    passed.append("bytes saved for backward within S segment inputs + one segment's activations")
