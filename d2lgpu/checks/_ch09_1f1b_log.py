"""``09.one_f_one_b``'s logged stages (:mod:`.ch09_one_f_one_b`): each forward and the
backward that reaches its output, by micro-batch (found by value), whether an input still
carried the stage before's graph, came cut without ``requires_grad_()`` or cut from a copy
(not on the output's memory: :func:`check_cut`), whether the first stage's micro-batches
were rows of ``x`` reordered, and whether a stage's graphs still hold what they saved
after their backward (``retain_graph=True``).

At each forward a stage judges, then lets go of, its graphs whose backward has run (held,
they would keep the answer's tensors alive), and notes a first stage's input that requires
grad (:func:`check_first_input`). :func:`class_targets` watches ``loss_fn``'s targets where
they are class indices (cast to the output's dtype, named).
"""

from __future__ import annotations

import functools
import weakref
from contextlib import contextmanager

import torch
from torch import nn

from ._ch09_given_grads import grads_state
from ._ch09_pipeline_rules import gathered, swapped_loss_hint
from ._kit import patched
from ._kit_calls import CallCounted
from ._util import CheckFailed

__all__ = [
    "NESTED",
    "nested_backwards",
    "KEPT_HINT",
    "LoggedStage",
    "check_freed",
    "graph_keeps_saved",
    "check_called",
    "check_first_input",
    "check_cut",
    "class_targets",
]


class LoggedStage(CallCounted):
    """A stage that logs ``(stage, "F", i)`` for its forward of micro-batch ``i``, and
    ``(stage, "B", i)`` when backward reaches that forward's output. ``i`` is found by value:
    ``seen[k - 1]`` holds the micro-batches (``k = 0``) or the stage before's outputs, by
    micro-batch; without a match (or without ``seen``), the count of its forwards."""

    def __init__(self, index: int, layers: nn.Module, log: list, seen: dict | None = None):
        super().__init__()
        self.index, self.layers, self._log, self.calls = index, layers, log, 0
        self.seen = seen
        self.uncut = False  # whether an input still carried the stage before's graph
        self.no_grad_input = False  # whether an input was cut without requires_grad_()
        self.nodes: list = []  # each forward's output node: its backward frees what it saved
        self.retained: list[int] = []  # micro-batches whose node held its saved after backward
        self.forwarded: set[int] = set()  # micro-batches this stage has run forward
        self.input_grad = False  # whether the first stage got an input that requires grad
        self.detached_in_place = False  # an output cut with detach_(), not a copy
        self.sent: dict[int, int] = {}  # each micro-batch's output: its storage
        self.sent_before: dict[int, int] = {}  # the stage before's sent (stages_of links them)
        self.copied = False  # an input cut from a copy of the stage before's output
        self.gathered = False  # a first stage's input of rows of x, but reordered
        self.given: list | None = None  # the caller's gradients (_ch09_given_grads)
        self.grads_then: str | None = None  # what .grad held at the first forward

    def _which(self, h) -> int:
        i, self.calls = self.calls, self.calls + 1
        inputs = {} if self.seen is None else self.seen.get(self.index - 1, {})
        for j, t in list(inputs.items()):  # a copy: a stage in another thread may add to it
            if isinstance(h, torch.Tensor) and t.shape == h.shape and torch.equal(t, h.detach()):
                return j
        if self.index == 0 and inputs and isinstance(h, torch.Tensor):
            self.gathered |= gathered(h.detach(), torch.cat(list(inputs.values())))
        return i

    def forward(self, h):
        self.counted()  # stage.forward(h), past the stage's hooks, counts in direct
        i = self._which(h)
        self.uncut = self.uncut or (self.index > 0 and getattr(h, "grad_fn", None) is not None)
        cut = self.index > 0 and isinstance(h, torch.Tensor) and not h.requires_grad
        self.no_grad_input = self.no_grad_input or cut
        if i not in self.forwarded:  # not a recomputation in backward (a checkpointed stage)
            self._let_go()
            self.copied |= isinstance(h, torch.Tensor) and _a_copy(h, self.sent_before.get(i))
        if self.given is not None and self.grads_then is None:
            self.grads_then = grads_state(self.layers.parameters(), self.given)
        if isinstance(h, torch.Tensor):
            self.input_grad |= self.index == 0 and h.requires_grad and h.grad_fn is None
        self._log.append((self.index, "F", i))
        out = self.layers(h)
        self.forwarded.add(i)
        self.sent[i] = out.untyped_storage().data_ptr()
        if out.requires_grad:
            out.register_hook(functools.partial(self._backward, i, weakref.ref(out)))
            self.nodes.append((i, out.grad_fn))
        if self.seen is not None:
            # a copy: the answer's own references to out stay its own (kept ones are named)
            self.seen.setdefault(self.index, {})[i] = out.detach().clone()
        return out

    def _backward(self, i: int, out, grad) -> None:
        """Log backward reaching forward ``i``'s output; an output that lost its graph since
        (``out.detach_()``: cut in place) is noted."""
        self._log.append((self.index, "B", i))
        self.detached_in_place |= out() is not None and out().grad_fn is None

    def _let_go(self) -> None:
        """Judge the output nodes whose backward has run (do they still hold what they
        saved?), then let go of them: a node holds its graph, which the step need not keep."""
        done = {(s, i) for s, a, i in list(self._log) if a == "B"}
        ran = [(j, node) for j, node in self.nodes if (self.index, j) in done]
        self.retained += [j for j, node in ran if node is not None and _kept_saved(node)]
        self.nodes = [(j, node) for j, node in self.nodes if (self.index, j) not in done]


def _a_copy(h: torch.Tensor, sent: int | None) -> bool:
    """Whether ``h``, cut from the stage before's output (a leaf that requires grad), holds
    a copy of it rather than its memory (``sent``: that output's storage)."""
    if sent is None or h.grad_fn is not None or not h.requires_grad:
        return False  # uncut or cut without requires_grad_(): named by their own rules
    return h.untyped_storage().data_ptr() != sent


def check_called(stages, where: str) -> None:
    """Each stage was called as a module, stage(h): not stage.forward(h), which skips its
    hooks."""
    direct = [s.index for s in stages if s.direct]
    if direct:
        raise CheckFailed(
            f"({where}) stage {direct[0] + 1}'s forward was called directly, stage.forward(h): "
            "that skips nn.Module.__call__ and with it every hook on the stage (forward and "
            "backward hooks, and the ones that DDP, FSDP or a profiler register there). Call "
            "the stage itself, stage(h)"
        )


# 09.one_f_one_b's words for a case that fails after the ones before it passed
KEPT_HINT = (
    ": the calls before this one passed. Does it keep something from an earlier call (orders "
    "or losses in a cache, a global, a class attribute, a default argument)?"
)


def _kept_saved(node) -> bool:
    """Whether ``node`` still holds the tensors it saved for backward (after a backward
    through it, only ``retain_graph=True`` leaves them)."""
    for name in dir(node):
        if name.startswith("_saved_"):
            try:
                value = getattr(node, name)
            except RuntimeError:  # freed by the backward that used it
                return False
            if isinstance(value, torch.Tensor):
                return True
    return False


def graph_keeps_saved(tensor) -> bool:
    """Whether any node of ``tensor``'s graph still holds a tensor it saved for backward."""
    seen, todo = set(), [tensor.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if _kept_saved(node):
            return True
        todo.extend(child for child, _ in node.next_functions)
    return False


def check_freed(stages, where) -> None:
    """Each stage's graphs, once backwarded, no longer hold what they saved."""
    if any(stage.uncut for stage in stages):
        return  # one graph through every stage: the order checks name it, on some case
    for stage in stages:
        kept = stage.retained + [
            i for i, node in stage.nodes if node is not None and _kept_saved(node)
        ]
        if kept:
            raise CheckFailed(
                f"({where}) after its backward, stage {stage.index + 1}'s graph of "
                f"micro-batch {kept[0]} still held the activations it saved: that backward "
                "ran with retain_graph=True. Without it autograd frees each micro-batch's "
                "activations as soon as its backward has run, which is how 1F1B keeps a stage "
                "at min(S - k, M) micro-batches in flight; with it they stay as long as "
                "anything refers to the graph. Leave retain_graph out (each graph is "
                "backwarded once)"
            )


def check_cut(stages, where) -> None:
    """Each stage after the first got, for every micro-batch, the stage before's output cut
    in place of a copy: ``h.detach().requires_grad_()``, a leaf on the same memory."""
    if uncut := [s.index for s in stages if s.uncut]:
        raise CheckFailed(
            f"({where}) stage {uncut[0] + 1} got stage {uncut[0]}'s output itself, graph and "
            "all: the graph is not cut between the stages, so the backward is one call through "
            "every stage, and the stages cannot run it as a pipeline (each on its device, when "
            "its turn comes). Cut it for every micro-batch, one micro-batch too: stage k + 1 "
            "gets h.detach().requires_grad_(), and stage k's backward is out.backward(h.grad)"
        )
    if copied := [s.index for s in stages if s.copied]:
        raise CheckFailed(
            f"({where}) stage {copied[0] + 1}'s input was a copy of stage {copied[0]}'s output "
            "(h.clone().detach(), or a new tensor), not that output cut from its graph: each "
            "micro-batch in flight then holds its activations twice, the output kept for the "
            "backward and the copy. Cut with h = out.detach().requires_grad_(), which shares "
            "out's memory"
        )


def check_first_input(stages, where) -> None:
    if stages and stages[0].input_grad:
        raise CheckFailed(
            f"({where}) stage 1's input, a micro-batch of x, required grad (h.detach()."
            "requires_grad_() on every stage, the first too): backward then computes the "
            "gradient of the data batch, an extra product per micro-batch that nothing uses. "
            "Cut only between stages: the first stage takes its micro-batch as it is"
        )


def class_targets(loss_fn, y: torch.Tensor):
    """``loss_fn``, which names targets of another dtype than ``y``'s class indices."""

    @functools.wraps(loss_fn)
    def loss(out, target, *args, **kwargs):
        tensors = isinstance(out, torch.Tensor) and isinstance(target, torch.Tensor)
        if tensors and out.dtype == y.dtype != target.dtype:  # (target, out)
            raise CheckFailed(swapped_loss_hint("the last stage's"))
        if isinstance(target, torch.Tensor) and target.dtype != y.dtype:
            raise CheckFailed(
                f"loss_fn got targets of dtype {str(target.dtype).replace('torch.', '')}, "
                f"where y holds class indices ({str(y.dtype).replace('torch.', '')}), as "
                "cross_entropy takes them: casting the targets (.to(out.dtype), .float()) fits "
                "only a regression loss. Pass each micro-batch's targets as they are"
            )
        return loss_fn(out, target, *args, **kwargs)

    return loss


NESTED = (
    "a backward ran inside another one (out.backward(...) called from a hook, or from a "
    "function autograd runs): it runs at once, within the backward that reached it, not at "
    "its stage's own turn, so the stages' orders follow the hooks. Call each stage's backward "
    "from the step's loop. "
)


@contextmanager
def nested_backwards():
    """Yield a list that gets an entry whenever a backward starts inside another."""
    found: list[bool] = []
    depth = [0]
    original = torch.autograd.backward

    def backward(*args, **kwargs):
        if depth[0]:
            found.append(True)
        depth[0] += 1
        try:
            return original(*args, **kwargs)
        finally:
            depth[0] -= 1

    with patched((torch.autograd, "backward", backward)):
        yield found
