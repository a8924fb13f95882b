"""``09.one_f_one_b``'s logged stages (:mod:`.ch09_one_f_one_b`): each forward and the
backward that reaches its output, by micro-batch (found by value), whether an input still
carried the stage before's graph or came cut without ``requires_grad_()``, and whether a
stage's graphs still hold what they saved after their backward (``retain_graph=True``).
"""

from __future__ import annotations

import torch
from torch import nn

from ._util import CheckFailed

__all__ = ["KEPT_HINT", "LoggedStage", "check_freed", "graph_keeps_saved"]


class LoggedStage(nn.Module):
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

    def _which(self, h) -> int:
        i, self.calls = self.calls, self.calls + 1
        inputs = {} if self.seen is None else self.seen.get(self.index - 1, {})
        for j, t in list(inputs.items()):  # a copy: a stage in another thread may add to it
            if isinstance(h, torch.Tensor) and t.shape == h.shape and torch.equal(t, h.detach()):
                return j
        return i

    def forward(self, h):
        i = self._which(h)
        self.uncut = self.uncut or (self.index > 0 and getattr(h, "grad_fn", None) is not None)
        cut = self.index > 0 and isinstance(h, torch.Tensor) and not h.requires_grad
        self.no_grad_input = self.no_grad_input or cut
        self._log.append((self.index, "F", i))
        out = self.layers(h)
        if out.requires_grad:
            out.register_hook(lambda grad: self._log.append((self.index, "B", i)))
            self.nodes.append((i, out.grad_fn))
        if self.seen is not None:
            self.seen.setdefault(self.index, {})[i] = out.detach()
        return out


# 09.one_f_one_b's words for a case that fails after the ones before it passed
KEPT_HINT = (
    ": the calls before this one passed. Does it keep something from an earlier call (orders "
    "or losses in a cache, a global, a default argument)?"
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
        kept = [i for i, node in stage.nodes if node is not None and _kept_saved(node)]
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
