"""``09.checkpoint``'s logged blocks, and what their log says about the answer's segments.

Each :class:`LoggedBlock` logs ``(index, phase, grad enabled, reentrant)`` at every forward
call: in the forward pass (``"forward"``) and in backward (``"backward"``, where a
checkpointed segment is recomputed). In the forward pass it also hooks its input, whose
gradient is complete once the block's backward has run: then it logs ``(index, "done",
True, False)``, the moment autograd frees what the block saved. From that timeline:

* :func:`backward_segments`: the segments recomputed, in the order backward ran them (an
  outer checkpoint around the whole segmented forward, and a segment function that backward
  calls with the loop's last blocks, named);
* :func:`peak_blocks`: how many blocks' activations were alive at once during backward,
  where a block's activations live from its run that backward uses (the forward pass, or
  its recomputation) until its backward has run. Which segment runs without a checkpoint
  decides it, which a byte count taken after the forward cannot see.

What it is not: the checker; :mod:`.ch09_checkpointing` runs the cases and holds the rules.
"""

from __future__ import annotations

import sys
import types

import torch
from torch import nn

from ._util import CheckFailed

__all__ = ["LoggedBlock", "backward_segments", "peak_blocks", "WIDTH"]

WIDTH = 8


def _in_reentrant_checkpoint() -> bool:
    frame: types.FrameType | None = sys._getframe(2)
    while frame is not None:
        code = frame.f_code
        if code.co_name == "forward" and code.co_filename.endswith("checkpoint.py"):
            return True  # CheckpointFunction.forward: use_reentrant=True
        frame = frame.f_back
    return False


class LoggedBlock(nn.Module):
    """``x + W2 dropout(tanh(W1 x))``, logging its calls (the module docstring); without
    dropout when ``p`` is 0."""

    def __init__(self, index: int, log: list, phase: list, p: float = 0.0):
        super().__init__()
        self.index, self._log, self._phase = index, log, phase
        layers = [nn.Linear(WIDTH, 2 * WIDTH), nn.Tanh()]
        layers += [nn.Dropout(p)] if p else []
        self.inner = nn.Sequential(*layers, nn.Linear(2 * WIDTH, WIDTH))

    def forward(self, h):
        phase, grad = self._phase[0], torch.is_grad_enabled()
        self._log.append((self.index, phase, grad, _in_reentrant_checkpoint()))
        if phase == "forward" and grad and isinstance(h, torch.Tensor) and h.requires_grad:
            h.register_hook(self._done)
        return h + self.inner(h)

    def _done(self, grad) -> None:
        if self._phase[0] == "backward":
            self._log.append((self.index, "done", True, False))


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
