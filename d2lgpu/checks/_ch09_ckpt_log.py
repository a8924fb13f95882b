"""``09.checkpoint``'s logged blocks, and what their log says about the answer's segments.

Each :class:`LoggedBlock` logs ``(index, phase, grad enabled, reentrant)`` at every forward
call: in the forward pass (``"forward"``) and in backward (``"backward"``, where a
checkpointed segment is recomputed). In the forward pass it also hooks its input, whose
gradient is complete once the block's backward has run: then it logs ``(index, "done",
True, False)``, the moment autograd frees what the block saved. It counts, in ``direct``,
the calls that came without its pre-forward hook (``block.forward(h)``, not ``block(h)``).
From that timeline:

* :func:`forward_once`: each block ran once in the forward pass;
* :func:`backward_segments`: the segments recomputed, in the order backward ran them (an
  outer checkpoint around the whole segmented forward, and a segment function that backward
  calls with the loop's last blocks, named);
* :func:`peak_blocks`: how many blocks' activations were alive at once during backward,
  where a block's activations live from its run that backward uses (the forward pass, or
  its recomputation) until its backward has run. Which segment runs without a checkpoint
  decides it, which a byte count taken after the forward cannot see;
* :func:`check_selective` and :func:`check_alive`: what the answer keeps outside autograd, which neither sees: the
  outputs a selective checkpoint's policy saves (in a cache of its own, outside
  ``saved_tensors_hooks``), and block outputs the answer still holds after backward (a
  list, a cache kept between calls).

What it is not: the checker; :mod:`.ch09_checkpointing` runs the cases and holds the rules.
"""

from __future__ import annotations

import sys
import types
import weakref

import torch
from torch import nn

from ._kit import alive_after_collecting
from ._kit_calls import CallCounted
from ._util import CheckFailed

__all__ = [
    "LoggedBlock",
    "backward_segments",
    "forward_once",
    "check_output",
    "peak_blocks",
    "check_alive",
    "check_kept_in_segments",
    "outputs_alive",
    "check_selective",
    "WIDTH",
    "no_graph_hint",
]

WIDTH = 8


def _in_reentrant_checkpoint() -> bool:
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        # CheckpointFunction.forward: use_reentrant=True (checkpoint_sequential's inner
        # function, also called forward, runs its unchecked last segment)
        if (
            code.co_filename.endswith("checkpoint.py")
            and getattr(code, "co_qualname", code.co_name)
            in ("CheckpointFunction.forward", "forward")
            and "ctx" in code.co_varnames
        ):
            return True
        frame = frame.f_back
    return False


class _Dropout(nn.Module):
    """Dropout written with ``F.dropout``, as a block's own forward may: no ``nn.Dropout``."""

    def __init__(self, p: float):
        super().__init__()
        self.p = p

    def forward(self, h):
        return nn.functional.dropout(h, self.p, self.training)


class LoggedBlock(CallCounted):
    """``x + W2 dropout(tanh(W1 x))``, logging its calls (the module docstring); without
    dropout when ``p`` is 0; ``hidden`` units between W1 and W2."""

    def __init__(self, index: int, log: list, phase: list, p: float = 0.0, hidden: int = 2 * WIDTH):
        super().__init__()
        self.index, self._log, self._phase = index, log, phase
        layers = [nn.Linear(WIDTH, hidden), nn.Tanh()]
        layers += [_Dropout(p)] if p else []  # functional: not an nn.Dropout to look for
        self.inner = nn.Sequential(*layers, nn.Linear(hidden, WIDTH))
        self.outputs: list = []  # weak references to its forward pass's outputs
        self.caches: list = []  # the caches of the selective checkpoints it ran in
        self.modes: set[bool] = set()  # whether it ran in training mode, at each call

    def forward(self, h):
        self.counted()  # block.forward(h), past the block's hooks, counts in direct
        phase, grad = self._phase[0], torch.is_grad_enabled()
        self._log.append((self.index, phase, grad, _in_reentrant_checkpoint()))
        self.modes.add(all(m.training for m in self.modules()))
        if phase == "forward" and grad and isinstance(h, torch.Tensor) and h.requires_grad:
            h.register_hook(self._done)
        out = h + self.inner(h)
        if phase == "forward":
            self.outputs.append(weakref.ref(out))
            self.caches += _selective_caches()
        return out

    def _done(self, grad) -> None:
        if self._phase[0] == "backward":
            self._log.append((self.index, "done", True, False))


def check_output(out, ref, tolerance, blocks, training: bool, where: str) -> None:
    """The output equals the plain forward's ``ref`` within ``tolerance``; else a hint that
    names the blocks that ran in another mode than the caller left them in (``training``)."""
    if torch.allclose(out, ref, tolerance.rtol, tolerance.atol):
        return
    other = [b.index for b in blocks if b.modes - {training}]
    if not other:
        raise CheckFailed(f"for {where}, the output differs from the blocks applied in order")
    mode, left = ("eval", "training") if training else ("training", "eval")
    raise CheckFailed(
        f"for {where}, the output differs from the blocks applied in order: block(s) {other} "
        f"ran in {mode} mode, though the caller left them in {left} mode (an eval() or "
        "train() inside the segments, put back after), so their dropout was not the "
        "caller's. Leave the modes alone: checkpoint's preserve_rng_state (the default) "
        "already makes the recomputation draw the forward's dropout masks"
    )


def backward_segments(log, n: int, where: str) -> list[list[int]]:
    """The recomputed segments, in the order backward ran them (each a run of blocks)."""
    again = [e[0] for e in log if e[1] == "backward"]
    repeated = sorted({i for i in again if again.count(i) > 1})
    if repeated and n > 1 and again[:n] == list(range(n)):
        raise CheckFailed(
            f"for {where}, backward first recomputed all {n} blocks as one, then the "
            "segments once more: a checkpoint around the whole segmented forward (an outer "
            "checkpoint, nested over the segments' own) recomputes the whole model in "
            "backward, and then each segment again, so most blocks run three times. Checkpoint "
            "each segment, with no checkpoint around them"
        )
    if repeated and not [i for i in range(min(repeated)) if i not in again]:
        raise CheckFailed(  # every block before them recomputed too: no stale loop variable
            f"for {where}, backward recomputed block(s) {repeated} more than once, and every "
            "segment's blocks at least once: a checkpoint inside a checkpointed segment (each "
            "block checkpointed again, nested) recomputes its blocks once for the segment and "
            "once more, alone, for its own backward. Checkpoint each segment once, with no "
            "checkpoint inside it"
        )
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


def _leaves(out) -> set[int]:
    """The ids of the leaf tensors ``out``'s graph reaches (its AccumulateGrad nodes)."""
    seen, found = set(), set()
    stack = [getattr(out, "grad_fn", None)]
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if hasattr(node, "variable"):
            found.add(id(node.variable))
        stack += [f for f, _ in node.next_functions]
    return found


def forward_once(log, n: int, where: str, out=None, blocks=()) -> None:
    """Each block ran once in the forward pass (``out``: what the answer returned, whose graph
    says whether the blocks' own parameters were used where no block ran)."""
    counts = [sum(1 for e in log if e[0] == i and e[1] == "forward") for i in range(n)]
    never = [i for i, c in enumerate(counts) if c == 0]
    if len(never) == n and _leaves(out) & {id(p) for p in blocks.parameters()} if blocks else False:
        raise CheckFailed(
            f"for {where}, none of the {n} blocks ran as a block, though their parameters were "
            "used: their children were called directly (block.inner, block.children()), which "
            "skips what each block adds around them (here, the residual h + ...). Call each "
            "block itself, blocks[i](h)"
        )
    if len(never) == n:
        raise CheckFailed(
            f"for {where}, none of the {n} blocks you were given ran: what ran were other "
            "modules (copies made with copy.deepcopy, or new ones), whose parameters are not "
            "the blocks' and get none of the gradients. Run the blocks themselves, blocks[i](h)"
        )
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


def peak_blocks(log) -> tuple[int, list[int]]:
    """``(peak, plain)``: the most blocks whose activations were alive at once during
    backward, and the blocks that ran with a graph in the forward pass and were never
    recomputed (their activations live from the forward pass until their backward)."""
    recomputed = {e[0] for e in log if e[1] == "backward"}
    plain = sorted({e[0] for e in log if e[1] == "forward" and e[2]} - recomputed)
    alive = set(plain)
    peak = len(alive)
    for index, phase, *_ in log:
        if phase == "backward":
            alive.add(index)
        elif phase == "done":
            alive.discard(index)
        peak = max(peak, len(alive))
    return peak, plain


def _selective_caches() -> list:
    """The caches of the selective checkpoints (``context_fn`` from
    ``create_selective_checkpoint_contexts``) running now: the dispatch mode that saves what
    the policy keeps has ``policy_fn`` and ``storage`` (op -> saved outputs)."""
    from torch.utils._python_dispatch import _get_current_dispatch_mode_stack

    caches = [getattr(mode, "storage", None) for mode in _get_current_dispatch_mode_stack()]
    return [cache for cache in caches if isinstance(cache, dict)]


def _holds_tensors(entry) -> bool:
    """Whether a cache entry holds saved outputs (a tensor, or a wrapper of one), not one of
    the markers some torch versions leave for an op to recompute or already consumed."""
    from torch.utils._pytree import tree_leaves

    leaves = tree_leaves(entry)
    return any(isinstance(getattr(v, "val", v), torch.Tensor) for v in leaves)


def check_selective(blocks, where: str) -> None:
    """After the forward pass: nothing a selective checkpoint's policy saved."""
    saved = set()
    for cache in (c for b in blocks for c in b.caches):
        for op, entries in cache.items():
            values = entries.values() if isinstance(entries, dict) else entries
            if any(_holds_tensors(v) for v in values):
                saved.add(str(op))
    if saved:
        raise CheckFailed(
            f"for {where}, a selective checkpoint (context_fn=create_selective_checkpoint_"
            f"contexts(policy)) kept the outputs of {', '.join(sorted(saved))} for backward, "
            "beside the segments' inputs: saved in a cache of its own, outside autograd's saved "
            "tensors, they add to what each segment keeps. This exercise asks for full "
            "checkpointing: leave context_fn out (or let the policy recompute everything)"
        )


def outputs_alive(blocks) -> list[int]:
    """The blocks whose outputs something still holds (garbage collected first)."""
    return alive_after_collecting(
        lambda: [b.index for b in blocks if any(ref() is not None for ref in b.outputs)]
    )


def check_kept_in_segments(alive: list[int], runs: list[list[int]], where: str) -> None:
    """Between forward and backward (``alive``, from :func:`outputs_alive`), no output of a
    block inside a checkpointed segment: only a segment's last output feeds the next one."""
    kept = sorted(i for run in runs for i in run[:-1] if i in alive)
    if kept:
        raise CheckFailed(
            f"for {where}, the outputs of block(s) {kept}, inside checkpointed segments, were "
            "still alive between the forward and backward: your code keeps references to them "
            "(a list, a dict, a global). Checkpointing frees a segment's activations after its "
            "forward and makes them again in backward; a tensor you hold keeps its memory "
            "anyway. Keep no reference to the blocks' outputs"
        )


def check_alive(blocks, where: str) -> None:
    """After backward, once the checker has let go of the output: no block output alive."""
    alive = outputs_alive(blocks)
    if alive:
        raise CheckFailed(
            f"for {where}, the outputs of block(s) {alive} were still alive after backward, "
            "once the checker had let go of the output: your code keeps references to them (a "
            "list, a dict, a global, a cache kept between calls). A tensor you hold keeps its "
            "memory through backward, which checkpointing is meant to free, and after it; keep "
            "no reference to the blocks' outputs"
        )


def no_graph_hint(log, where) -> str:
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
