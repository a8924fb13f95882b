"""``09.checkpoint``'s rules on what the answer does around its segments, beside them.

* :func:`housekeeping`: the calls of ``gc.collect`` and ``torch.cuda.empty_cache`` while
  the answer runs (:func:`check_housekeeping` names them): checkpoint frees each segment's
  activations by itself, so a collection per segment is host time paid at every step for
  nothing, and ``empty_cache`` gives back to the device the blocks the next segment
  allocates again, synchronizing it (chapter 2: PyTorch itself never needs it);
* :func:`check_called`: every block ran as ``block(h)``, through ``nn.Module.__call__``,
  whose hooks ``block.forward(h)`` skips (each logged block counts the calls that came
  without its pre-forward hook);
* :func:`check_input_left`: the caller's ``x`` keeps its ``requires_grad``: setting it
  changes the caller's tensor, and backward then computes and keeps a gradient for a data
  batch that nothing needs;
* :func:`check_random_state`: the global random generator ends where the plain forward
  leaves it, not restored (``torch.random.fork_rng`` around the call) nor reseeded, so
  that the next call draws new dropout masks;
* :func:`check_fresh`: no block of an earlier call ran during this one;
* :func:`recomputed_alike`: torch's ``CheckpointError`` (a segment's rerun in backward
  saved other tensors than its forward) named with its cause.

What it is not: the checker; :mod:`.ch09_checkpointing` runs the cases and the other rules.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

import torch
import torch.utils.checkpoint

from ._kit import calls_to
from ._kit_code import runs_of
from ._util import CheckFailed

__all__ = [
    "check_backward_random_state",
    "check_blocks_left",
    "check_enough_checkpointed",
    "segments_named",
    "housekeeping",
    "sequential_split",
    "check_grads_left",
    "check_housekeeping",
    "check_called",
    "check_input_left",
    "check_random_state",
    "check_fresh",
    "check_own_leaf",
    "own_leaf",
    "recomputed_alike",
]


@contextmanager
def housekeeping() -> Iterator[list[str]]:
    """Yield a list that receives ``"gc.collect()"`` and ``"torch.cuda.empty_cache()"`` for
    each call of them in the block (``empty_cache`` however it was imported), and the name of
    each pair of saved-tensor hooks entered there but checkpoint's own (``save_on_cpu``)."""
    hooks = torch.autograd.graph.saved_tensors_hooks
    with (
        calls_to(gc, "collect", lambda *a, **k: "gc.collect()") as collected,
        runs_of(torch.cuda.memory.empty_cache) as emptied,
        calls_to(hooks, "__enter__", lambda self: _hooks_name(type(self))) as entered,
    ):
        seen: list[str] = []
        yield seen
    seen += collected + [f"torch.cuda.{name}()" for name in emptied] + [e for e in entered if e]


_HOOKS = "saved-tensor hooks: "  # how housekeeping() lists a pair of hooks entered


def _hooks_name(cls) -> str | None:
    if cls.__module__ == "torch.utils.checkpoint":  # checkpoint's own, around each segment
        return None
    return f"{_HOOKS}{cls.__module__}.{cls.__qualname__}"


def check_housekeeping(calls: list[str], where: str) -> None:
    hooks = [c.removeprefix(_HOOKS) for c in calls if c.startswith(_HOOKS)]
    calls = [c for c in calls if not c.startswith(_HOOKS)]
    if hooks:
        raise CheckFailed(
            f"for {where}, your function installed saved-tensor hooks ({hooks[0]}) around the "
            "blocks: every tensor kept for backward then goes through them (save_on_cpu copies "
            "each one to the host in the forward and back in the backward: two transfers per "
            "tensor on a GPU), beyond what the exercise asks, and out of sight of the bytes "
            "saved for backward that the check counts. Checkpoint the segments, and nothing "
            "more"
        )
    if calls:
        names = sorted(set(calls), key=calls.index)
        raise CheckFailed(
            f"for {where}, your function called {' and '.join(names)} ({len(calls)} call(s) in "
            "one forward): checkpoint frees each segment's activations by itself, as soon as "
            "the segment ends. A garbage collection costs host time at every step, and "
            "torch.cuda.empty_cache() synchronizes the device and hands back the memory that "
            "the next segment allocates again. Call neither"
        )


def check_called(blocks, where: str) -> None:
    """Every block's forward came through ``block(h)``, which runs its hooks."""
    direct = [b.index for b in blocks if b.direct]
    if direct:
        raise CheckFailed(
            f"for {where}, block(s) {direct} ran without their module hooks: block.forward(h) "
            "skips what nn.Module.__call__ does around it (forward and pre-forward hooks, "
            "which loggers, pruning and parametrizations use). Call the block itself, block(h)"
        )


def check_blocks_left(blocks, n: int, modes: list[bool], where: str) -> None:
    """The caller's ModuleList as it was given: ``n`` blocks, each module in its mode."""
    if len(blocks) != n:
        raise CheckFailed(
            f"for {where}, your function changed the caller's blocks: it was given {n} and "
            f"left {len(blocks)} (add_module, append or a segment registered on the "
            "ModuleList), so the caller's next forward runs other modules, some twice. Keep "
            "segments in a list of your own (or a slice, blocks[i:j]); leave blocks as it is"
        )
    if [m.training for m in blocks.modules()] != modes:
        changed = sum(m.training != was for m, was in zip(blocks.modules(), modes, strict=True))
        raise CheckFailed(
            f"for {where}, your function left the blocks in another mode than it was given "
            f"(.train() or .eval(): {changed} module(s) changed): that changes what they compute "
            "(dropout) for the caller, and here for the forward too. Run the blocks in the "
            "mode they come in"
        )


def check_input_left(x: torch.Tensor, needs_grad: bool, where: str) -> None:
    if x.requires_grad != needs_grad:
        done = "set" if x.requires_grad else "cleared"
        raise CheckFailed(
            f"for {where}, your function {done} requires_grad on the caller's input x "
            "(x.requires_grad_()): it changes the caller's tensor, and backward then computes "
            "and keeps a gradient for the data batch, which nothing needs. With "
            "use_reentrant=False, checkpoint needs no input that requires a gradient: leave x "
            "as it is"
        )


def check_backward_random_state(before, after, where: str) -> None:
    """Backward leaves the global generator where it found it (``before``, ``after``)."""
    if not torch.equal(before, after):
        raise CheckFailed(
            f"for {where}, backward moved the global random generator: the recomputation in "
            "backward drew its dropout masks from it anew (preserve_rng_state=False), or "
            "reseeded it (torch.manual_seed inside a segment), and left it there. Drawn anew, "
            "the masks are not the forward's, so the gradients belong to other masks; either "
            "way the caller's next random draws (the next step's dropout masks) are not the "
            "ones it would get. Leave preserve_rng_state=True, checkpoint's default: it saves "
            "the generator's state at the forward, replays it for the recomputation and puts "
            "it back; and reseed nothing"
        )


def check_random_state(before, after, plain, where: str) -> None:
    """``after``, the generator's state after the answer's forward, is ``plain``, the
    state after the plain forward, both from ``before``."""
    if torch.equal(after, plain):
        return
    if torch.equal(after, before):
        raise CheckFailed(
            f"for {where}, the random generator is where it was before your function ran, "
            "though its dropout drew random numbers: something restored it (torch.random."
            "fork_rng around the forward, or set_rng_state), so every call draws the same "
            "dropout masks, step after step. Let the forward draw from the global generator "
            "as the plain forward does; checkpoint replays its state in backward by itself "
            "(preserve_rng_state=True)"
        )
    raise CheckFailed(
        f"for {where}, the random generator ended elsewhere than after the plain forward: "
        "your function drew random numbers of its own, or reseeded it (torch.manual_seed), "
        "which changes the caller's random stream. Leave the generator to the blocks' own draws"
    )


def check_fresh(earlier: list, before: list, log, where) -> None:
    """No block of an earlier case ran during this one: the answer used this call's blocks."""
    grown = [len(other) > was for other, was in zip(earlier, before, strict=False)]
    if any(grown):
        ran = "none of" if not log else "not only"
        raise CheckFailed(
            f"for {where}, blocks of an earlier call ran, {ran} the blocks passed in: "
            "something kept between calls (segment functions cached by the number of blocks "
            "and segments, or by id(blocks), say) holds the blocks it was made with. Make the "
            "segments from the blocks passed in, at every call"
        )


def sequential_split(runs, n, s) -> bool:
    """Whether ``runs`` is checkpoint_sequential's split: ``S - 1`` checkpointed segments of
    ``N // S`` blocks, the remainder run without a checkpoint. Where ``N`` is not a multiple
    of ``S`` its last segment is longer than ``ceil(N / S)``; the prompt names it, so it
    passes, and its longer last segment counts in the bound on the bytes kept."""
    return len(runs) == s - 1 and all(len(r) == n // s for r in runs)


def segments_named(runs, n: int, s: int) -> str:
    """What is wrong with the segments backward recomputed (``runs``, each a list of blocks)
    where their number or size is not the one asked: ``n`` blocks in ``s`` segments."""
    longest, recomputed = -(-n // s), sum(len(r) for r in runs)
    sizes = [len(r) for r in runs]
    asked = f"{len(runs)} segments where {s} were asked"
    checked = {i for r in runs for i in r}
    plain = [i for i in range(n) if i not in checked]
    tail = checked == set(range(recomputed)) and max(sizes) <= longest
    if len(runs) == n > s:
        return "each block alone"
    if recomputed == n and len(runs) != s:
        return f"{asked}: every block was checkpointed, so your number of segments is {len(runs)}"
    if tail and len(runs) < s - 1:
        return (
            f"{asked}: blocks {recomputed} to {n - 1} ran without a checkpoint, their "
            "activations kept through backward; only the last segment may be left unchecked"
        )
    if plain and plain[0] < max(checked) and len(runs) < s - 1:
        return (
            f"{asked}: blocks {plain} ran without a checkpoint, not only after the last "
            "checkpointed one, their activations kept through backward; only the last segment "
            "may be left unchecked"
        )
    if len(runs) not in (s, s - 1):
        return asked
    return f"one of {max(sizes)} blocks, longer than ceil({n} / {s}) = {longest}"


def check_enough_checkpointed(runs, n: int, s: int, where: str) -> None:
    """Fail where more blocks ran without a checkpoint than one last segment may hold (at most
    ``ceil(n / s)``, or checkpoint_sequential's remainder): ``runs``, the segments backward
    recomputed, each a list of blocks."""
    longest, recomputed = -(-n // s), sum(len(r) for r in runs)
    if recomputed >= n - longest or sequential_split(runs, n, s):
        return
    sizes = ", ".join(str(len(c)) for c in torch.arange(n).tensor_split(s))
    raise CheckFailed(
        f"for {where}, only {recomputed} of {n} blocks were checkpointed (backward recomputed "
        f"segments of {[len(r) for r in runs]} blocks): {n - recomputed} ran without a "
        f"checkpoint, more than one last segment of at most ceil({n} / {s}) = {longest} may "
        f"hold. Cut the {n} blocks into {s} segments whose sizes differ by at most one "
        f"(torch.tensor_split gives {sizes}) and checkpoint each (the last one may run without)"
    )


def check_grads_left(blocks, where: str) -> None:
    """The gradients the blocks had (all ones, a caller's so far) are as they were, and then
    cleared for the checker's backward: a forward leaves them alone."""
    changed = any(q.grad is None or not bool((q.grad == 1).all()) for q in blocks.parameters())
    if changed:
        raise CheckFailed(
            f"for {where}, your function changed the gradients the blocks already had (zero_grad(), "
            ".grad set to None or written): a caller that accumulates gradients over several "
            "batches loses them. checkpointed_forward runs the forward only; leave .grad alone"
        )
    for q in blocks.parameters():
        q.grad = None


def own_leaf(out, blocks, x) -> tuple | None:
    """The shape of a leaf of the output's graph that is neither a block's parameter nor the
    caller's ``x``: one the function made (``x.detach().requires_grad_()``); None if none."""
    owned = {id(p) for p in blocks.parameters()} | {id(x)}
    seen, todo = set(), [out.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or node in seen:
            continue
        seen.add(node)
        leaf = getattr(node, "variable", None)
        if isinstance(leaf, torch.Tensor) and id(leaf) not in owned:
            return tuple(leaf.shape)
        todo += [next_node for next_node, _ in node.next_functions]
    return None


def check_own_leaf(shape: tuple | None, where: str) -> None:
    """No leaf the function made (:func:`own_leaf`): backward would compute, and keep, a
    gradient that nothing reads."""
    if shape is not None:
        raise CheckFailed(
            f"for {where}, backward computes a gradient for a tensor your function made (a "
            f"leaf of shape {shape} that requires grad: x.detach().requires_grad_(), a habit "
            "of the reentrant checkpoint): nothing reads it, yet backward computes it through "
            "the first segment and keeps it in its .grad. use_reentrant=False needs no input "
            "that requires a gradient: pass x as it is"
        )


@contextmanager
def recomputed_alike(where: str) -> Iterator[None]:
    """Backward, with torch's ``CheckpointError`` named: a segment reran other work."""
    try:
        yield
    except torch.utils.checkpoint.CheckpointError as error:
        ran = "none of its blocks" if "recomputation: 0" in str(error) else "other work"
        raise CheckFailed(
            f"for {where}, backward reran a segment and it ran {ran}, not what its forward ran "
            "(torch raised CheckpointError: a different number of tensors was saved). The "
            "function you checkpoint runs again when backward calls it: an iterator "
            "(itertools.islice, a generator, map) is spent after the forward, and a list "
            "refilled since holds other blocks. Bind each segment's blocks as a list or a "
            "range when its function is made"
        ) from None
