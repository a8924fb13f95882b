"""``09.one_f_one_b``'s cases (:mod:`.ch09_one_f_one_b`): the stages and data of a case, the
gradients the stages start with, the comparison of the loss and the gradients with the
unsplit model's, and a second step on the same stages (:func:`check_second_step`), where
anything an answer keeps on the stages from the first shows."""

from __future__ import annotations

import functools

import torch
from torch import nn

from ._ch09_1f1b_log import LoggedStage
from ._ch09_given_grads import check_not_scaled, expect_given
from ._ch09_grads import CREATE_GRAPH, ZEROED
from ._kit import Tolerance
from ._kit import close as kit_close
from ._util import CheckFailed, raised_where

__all__ = [
    "LOSSES",
    "TOLERANCE",
    "WIDTH",
    "check_grads",
    "check_second_step",
    "data_of",
    "same_loss",
    "stages_of",
    "start_grads",
]

WIDTH = 5
TOLERANCE = Tolerance(rtol=1e-4, atol=1e-6)  # gradients, against the unsplit model
# each case's loss_fn, in turn: not always mse_loss, nor always a function
LOSSES: list = [  # functions, a partial, a module: each called as loss_fn(output, target)
    nn.functional.mse_loss,
    functools.partial(nn.functional.huber_loss, delta=0.5),
    nn.L1Loss(),
    nn.functional.smooth_l1_loss,
]


def stages_of(n, log, seed=0, seen=None):
    with torch.random.fork_rng(devices=[]):
        torch.manual_seed(seed)
        layers = [nn.Sequential(nn.Linear(WIDTH, WIDTH), nn.Tanh()) for _ in range(n)]
    stages = [LoggedStage(k, one, log, seen) for k, one in enumerate(layers)]
    for before, stage in zip(stages, stages[1:], strict=False):
        stage.sent_before = before.sent  # where each micro-batch's output was: cut, not copied
    return stages


def data_of(rows, gen, classes=False):
    x = torch.randn(rows, WIDTH, generator=gen)
    if classes:
        return x, torch.randint(WIDTH, (rows,), generator=gen)
    return x, torch.randn(rows, WIDTH, generator=gen)


def start_grads(stages, gen):
    """Non-zero gradients in every stage, as a caller accumulating over steps leaves them."""
    start = []
    for stage in stages:
        for p in stage.parameters():
            start.append(torch.randn(p.shape, generator=gen))
            p.grad = start[-1].clone()  # backward adds to it in place
    expect_given(stages, start)  # each stage notes its .grad at its first forward
    return start


def check_grads(stages, reference, start, where) -> None:
    mine = [(k, name, p) for k, s in enumerate(stages) for name, p in s.named_parameters()]
    refs = [q.grad for s in reference for q in s.parameters()]
    if all(p.grad is None for _, _, p in mine):
        raise CheckFailed(
            f"({where}) no stage has a gradient, not even the ones they had before the step: "
            "something set them to None (zero_grad() does). Leave them: backward adds to them"
        )

    if any(p.grad is not None and p.grad.requires_grad for _, _, p in mine):
        raise CheckFailed(f"({where}) {CREATE_GRAPH}")

    def close(p, want):
        return kit_close(p.grad, want, TOLERANCE)

    wrong = [
        (k, name, p)
        for (k, name, p), r, s0 in zip(mine, refs, start, strict=True)
        if not close(p, r + s0)
    ]
    if not wrong:
        return
    if all(close(p, r) for (_, _, p), r in zip(mine, refs, strict=True)):
        raise CheckFailed(f"({where}) {ZEROED}")
    check_not_scaled([p.grad for _, _, p in mine], refs, start, f"({where})")
    k, name, p = wrong[0]
    raise CheckFailed(
        f"({where}) stage {k + 1}'s {name} has a gradient unlike the unsplit "
        "model's: send each stage's input gradient back to the stage before "
        "(out.backward(h.grad)), and weight each micro-batch's loss by its share"
        if p.grad is not None
        else f"({where}) stage {k + 1}'s {name} has no gradient"
    )


def same_loss(got, want) -> bool:
    """Whether the loss returned (a float or a 0-d tensor) is ``want``, to 1e-5 of it."""
    want = want.item() if isinstance(want, torch.Tensor) else want  # float() of a tensor
    return abs(float(got) - want) <= 1e-5 * max(1.0, abs(want))  # with a graph warns


def check_second_step(step) -> None:
    """Two steps on the same stages, with no optimizer step between (gradients accumulated
    over a larger batch): each step's loss is its batch's, and the gradients are the sum. The
    stages start with no gradients (``.grad`` None, as ``zero_grad()`` leaves them)."""
    gen = torch.Generator().manual_seed(len("second step"))
    stages, reference = stages_of(3, []), stages_of(3, [])
    for call in range(2):
        x, y = data_of(7, gen)
        loss = nn.functional.mse_loss(nn.Sequential(*reference)(x), y)
        loss.backward()
        try:
            got = step(stages, x, y, nn.functional.mse_loss, 3)
            said = f"returned {float(got) if isinstance(got, torch.Tensor | float) else got!r}"
        except Exception as error:  # noqa: BLE001 (named with the call that raised it)
            got, said = None, f"raised {type(error).__name__}: {error}"
            if call == 0:
                raise CheckFailed(
                    "(3 stages whose parameters' .grad are None, as zero_grad() leaves them "
                    f"before a step) your step {said}{raised_where(error)}: backward fills a "
                    ".grad that is None, and adds to one that is not. Code that adds into "
                    "p.grad itself must start it where it is None (p.grad = g), or call "
                    "backward, which does"
                ) from None
        if not (isinstance(got, torch.Tensor | float) and same_loss(got, loss)):
            raise CheckFailed(
                f"(a second step on the same 3 stages, with new data) call {call + 1} {said}; "
                f"its batch's loss is {loss.item():.6g}: does your step keep something on the "
                "stages or in a global from the call before (queues, orders, micro-batches, "
                "made once)? Make them anew in each call"
            )
    zeros = [torch.zeros_like(p) for s in stages for p in s.parameters()]
    check_grads(stages, reference, zeros, "a second step on the same 3 stages")
