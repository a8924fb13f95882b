"""Checker of chapter 9's ``09.one_f_one_b``: a training step in 1F1B's order, in one process.

The answer is ``one_f_one_b_step(stages, x, y, loss_fn, n_micro)``: ``stages`` is a list
of ``S`` modules applied one after the other; the step splits the batch into
``min(n_micro, len(x))`` micro-batches, runs each stage's forwards and backwards in
1F1B's order (stage ``k``, from 0, runs ``min(S - k - 1, M)`` forwards, then one forward
and one backward in turn, then its last backwards), accumulates the gradients of
``loss_fn`` over the whole batch into the stages, and returns that loss.

The checks, on 1 to 4 stages, micro-batches of uneven sizes and fewer rows than
micro-batches:

* the loss and every stage's gradients equal the unsplit model's, with ``loss_fn``
  changing between cases (``mse_loss``, ``huber_loss`` through ``functools.partial``, an
  ``nn.L1Loss`` object, ``smooth_l1_loss``); the stages start with non-zero gradients,
  which the step must add to (a ``zero_grad()`` inside it is named, and so are the
  gradients zeroed by the first forward, or scaled with the step's: :mod:`._ch09_given_grads`);
* from each stage's logged calls (a forward, and the backward reaching its output), each
  stage's order is :func:`d2lgpu.pipeline.one_f_one_b_order`'s, each micro-batch known
  by its values (the split's, then the stage before's outputs); GPipe's order, no
  warm-up, one forward too many, and forwards or backwards out of the micro-batches'
  order are named;
* each stage's peak of micro-batches in flight, ``min(S - k, M)``, follows from it, as
  long as each backward frees what its micro-batch saved: a stage's graph that still holds
  its saved tensors after its backward (``retain_graph=True``) is named;
* micro-batch ``i`` is ``tensor_split``'s ``i``-th piece of ``x``, not rows reordered;
  the graph is cut between stages for every micro-batch, one too (a last case has
  ``M = 1``), on the output's memory, not a copy;
* the first stage's input left without ``requires_grad`` (the data needs no gradient);
  ``loss_fn``'s targets as they come (a last case, ``cross_entropy`` on class indices,
  names targets cast to the output's dtype) (:mod:`._ch09_1f1b_log`);
* the orders are the answer's own: ``d2lgpu.pipeline``'s order helpers
  (``one_f_one_b_order``, ``gpipe_order``, ``schedule_ticks``), which the prompt rules out,
  are watched while the step runs (:func:`._kit_code.runs_of`, which sees them however
  they were imported), and named after the order checks.
"""

from __future__ import annotations

import torch
from torch import nn

from ..pipeline import gpipe_order, one_f_one_b_order, schedule_ticks
from ._ch09_1f1b_cases import (
    LOSSES,
    check_grads,
    check_second_step,
    data_of,
    same_loss,
    stages_of,
    start_grads,
)
from ._ch09_1f1b_log import (
    KEPT_HINT,
    NESTED,
    check_called,
    check_cut,
    check_first_input,
    check_freed,
    class_targets,
    nested_backwards,
)
from ._ch09_1f1b_orders import (
    diagnose,
    early_backward,
    forwards_named,
    helpers_held,
    in_flight_peak,
    kept_warm_up,
)
from ._ch09_given_grads import check_given
from ._ch09_grads import check_nothing_left, hooks_on, kept_by, made_by_step
from ._ch09_pipeline_rules import GATHERED
from ._kit_code import runs_of
from ._kit_seeds import reseeds_named
from ._util import CheckFailed, one_cpu_thread, raised_where

__all__ = ["check_one_f_one_b", "CASES"]

# (stages, rows in the batch, micro-batches asked for)
# (3, 4, 1): one micro-batch, whose stages are cut too, before (3, 7, 3) (warm-ups kept from the
# first call of 3 stages show); (3, 9, 4): 3 stages and 4 micro-batches again, with rows for
# all 4 (kept orders show); then (4, 2, 4): fewer rows than stages less one, and than n_micro
# (a warm-up counted from n_micro shows)
CASES = [(2, 8, 4), (4, 16, 8), (4, 6, 2), (3, 4, 1), (3, 7, 3), (2, 5, 4), (3, 2, 4), (1, 5, 3)]
CASES += [(3, 9, 4), (4, 2, 4)]
# Then cross_entropy on class indices (y of int64 in range(WIDTH)), not the output's dtype
CLASS_CASES = [(3, 6, 3)]
# d2lgpu.pipeline's order helpers, which the prompt rules out (micro_batches it allows)
_HELPERS = (one_f_one_b_order, gpipe_order, schedule_ticks)
_NO_GRAD_INPUT = (
    "({where}) stage {k}'s input did not require grad, and then your code raised RuntimeError: "
    "{error}. The graph was cut with detach() alone: backward then leaves no gradient in that "
    "input's .grad (None) to send back to the stage before. Cut it with h.detach()"
    ".requires_grad_(), so that the stage's backward fills h.grad"
)


@one_cpu_thread
def check_one_f_one_b(answer, passed: list[str]) -> None:
    """``09.one_f_one_b``: a 1F1B training step over ``S`` stages, in one process."""
    step = answer
    if not callable(step):
        raise CheckFailed(f"the answer must be the function one_f_one_b_step, got {step!r}")
    earlier: list[float] = []  # the losses of the cases before
    ms: dict[tuple[int, int], int] = {}  # (stages, n_micro) -> the micro-batches it gave
    costs: list[CheckFailed] = []  # a gradient of the data: after the values
    shapes: dict[tuple, str] = {}  # the shapes of each case's x and y: the first case's
    for case, (n_stages, rows, n_micro) in enumerate(CASES + CLASS_CASES):
        m, classes = min(n_micro, rows), case >= len(CASES)
        gen = torch.Generator().manual_seed(case)  # the case's data, the same on every run
        x, y = data_of(rows, gen, classes)
        ref_log: list = []
        reference = stages_of(n_stages, ref_log)
        loss_fn = nn.functional.cross_entropy if classes else LOSSES[case % len(LOSSES)]
        loss = loss_fn(nn.Sequential(*reference)(x), y)
        loss.backward()
        log: list = []  # each micro-batch found by value, from x's split by tensor_split
        stages = stages_of(n_stages, log, seen={-1: dict(enumerate(torch.tensor_split(x, m)))})
        start = start_grads(stages, gen)
        where = f"{n_stages} stages, {rows} rows in {n_micro} micro-batch{'es' * (n_micro > 1)}"
        hooks, held = hooks_on(stages), kept_by(step, stages)
        reseeds = reseeds_named("your step")
        with runs_of(*_HELPERS) as helpers, nested_backwards() as nested, reseeds:
            try:
                got = step(stages, x, y, class_targets(loss_fn, y) if classes else loss_fn, n_micro)
            except CheckFailed as failed:
                raise CheckFailed(f"({where}) {failed.hint}") from None
            except Exception as error:
                k = next((s.index for s in stages if s.no_grad_input), None)
                if k is not None and isinstance(error, RuntimeError):
                    raise CheckFailed(
                        _NO_GRAD_INPUT.format(where=where, k=k + 1, error=error)
                    ) from None
                if case == 0:
                    raise
                at = raised_where(error)
                few = (
                    f"here fewer micro-batches ({m}) than stages less one ({n_stages - 1}): does a "
                    "warm-up of S - k - 1 forwards on stage k ask for micro-batches that do not "
                    "exist? Cap it at M, min(S - k - 1, M). Or "
                ) * (m < n_stages - 1)
                raise CheckFailed(
                    f"({where}) your code raised {type(error).__name__}: {error}{at}, though "
                    f"the calls before this one, with other stages or micro-batches, ran: {few}"
                    f"{'d' if few else 'D'}oes it keep something from an earlier call (a cache, "
                    "a global, a default argument)?"
                ) from None
        seen = [t for outs in stages[0].seen.values() for t in outs.values()]
        returned = [got] if isinstance(got, torch.Tensor) else []
        made = made_by_step(step, stages, held, [*returned, *seen])
        if not isinstance(got, torch.Tensor | float) or (
            isinstance(got, torch.Tensor) and got.numel() != 1
        ):
            raise CheckFailed(
                f"({where}) return the batch's loss (a tensor or a float), got {got!r}"
            )
        forwards = [sum(1 for s, a, _ in log if s == k and a == "F") for k in range(n_stages)]
        if any(f != m for f in forwards):
            raise CheckFailed(
                f"({where}) the stages ran {forwards} forwards: min(n_micro, len(x)) = {m} "
                "non-empty micro-batches, each through each stage once (torch.tensor_split)"
                + (
                    KEPT_HINT
                    if ms.get((n_stages, n_micro), m) != m
                    or {(n_stages, f) for f in forwards} <= {(s, m0) for (s, _), m0 in ms.items()}
                    else forwards_named(forwards, m, rows, n_micro)
                )
            )
        if stages[0].gathered:
            raise CheckFailed(f"({where}) {GATHERED}")
        if cut := [stage.index for stage in stages if stage.detached_in_place]:
            raise CheckFailed(
                f"({where}) stage {cut[0] + 1}'s output was cut from its graph in place "
                "(out.detach_()): the next stage's input is then that same tensor, and the "
                f"sending stage's own backward no longer reaches its parameters. Cut a copy: "
                "h = out.detach().requires_grad_(), and keep out for the stage's backward"
            )
        uncut = [stage.index for stage in stages if stage.uncut]
        for k in range(n_stages):
            order = [(a, i) for s, a, i in log if s == k]
            want = one_f_one_b_order(n_stages, m)[k]
            if order != want and sorted(order) == sorted(want) and uncut:
                raise CheckFailed(
                    f"({where}) stage {uncut[0] + 1} got stage {uncut[0]}'s output itself, "
                    "graph and all: the graph is not cut between the stages, so one backward "
                    "runs through every stage at once, whatever order you give them. Give each "
                    "stage a detached copy that requires a gradient, and run each stage's "
                    "backward with the gradient of the next stage's input"
                )
            if order != one_f_one_b_order(n_stages, m)[k]:
                as_many = [m0 for (s, _), m0 in ms.items() if s == n_stages]
                raise CheckFailed(
                    f"({where}) "
                    + NESTED * bool(nested)
                    + diagnose(k, order, n_stages, m)
                    + (kept_warm_up(k, order, n_stages, m, as_many) or "")
                )
        if helpers:  # after the orders: a wrong order, helper or not, is named first
            raise CheckFailed(
                f"({where}) your step called d2lgpu.pipeline's {helpers[0]}: the exercise asks "
                "for the orders written yourself, not taken from the chapter's helpers "
                f"({', '.join(f.__name__ for f in _HELPERS)}). Write each stage's order from "
                "the rule: min(S - k - 1, M) forwards, then one forward and one backward in "
                "turn, then the last backwards"
            )
        if not same_loss(got, loss):
            mse = None if classes else nn.functional.mse_loss(nn.Sequential(*reference)(x), y)
            if loss_fn is not nn.functional.mse_loss and mse is not None and same_loss(got, mse):
                raise CheckFailed(
                    f"({where}) the loss it returned is mse_loss's, but this case's loss_fn is "
                    "another loss: call the loss_fn you were given, not a loss of your choice"
                )
            with torch.no_grad():
                parts = zip(torch.tensor_split(x, m), torch.tensor_split(y, m), strict=True)
                plain = sum(loss_fn(nn.Sequential(*reference)(a), b) for a, b in parts) / m
            if same_loss(got, plain):
                raise CheckFailed(
                    f"({where}) the loss it returned is the plain mean of the micro-batches' "
                    "losses, which is wrong when their sizes differ: weight each by its share "
                    "of the batch's rows"
                )
            summed = bool(earlier) and same_loss(got, loss.item() + sum(earlier))
            shaped = (x.shape, y.shape) in shapes  # a batch of these shapes passed before
            raise CheckFailed(
                f"({where}) the loss it returned is {float(got):.6g}, "
                + (
                    f"the unsplit model's {loss.item():.6g} plus the losses of the calls before"
                    + KEPT_HINT
                    if summed
                    else f"the unsplit model's {loss.item():.6g}, and a case before with a "
                    f"batch of the same shapes ({shapes.get((x.shape, y.shape))}) passed"
                    ": does your step keep something from an earlier call (micro-batches, orders "
                    "or losses in a cache keyed by shapes, a global, a default argument)? Split "
                    "this call's x and y"
                    if shaped
                    else f"the unsplit model's {loss.item():.6g}: weight each micro-batch's "
                    "mean loss by its share of the batch's rows"
                )
            )
        try:
            check_grads(stages, reference, start, where)
        except CheckFailed:  # wrong gradients: from a backward run before its gradient came?
            if (early := early_backward(log, n_stages, m, where)) is None:
                raise
            raise CheckFailed(early) from None
        check_given(stages, lambda stage: stage.index + 1, f"({where})")
        check_freed(stages, where)
        for stage in stages:  # the checker's own hold on the graphs (and their leaves): gone
            stage.nodes.clear()
        try:  # a cost: named once every case's values have passed
            check_nothing_left(stages, hooks, made, f"({where})")
        except CheckFailed as failed:
            costs.append(failed)
        for rule in (check_cut, check_first_input, check_called):  # costs, not wrong values: named
            try:  # once every case's values have passed
                rule(stages, where)
            except CheckFailed as failed:
                costs.append(failed)
        earlier.append(loss.item())
        ms[n_stages, n_micro] = m
        shapes.setdefault((x.shape, y.shape), where)
    check_second_step(step)
    if costs:
        raise costs[0]
    if hint := helpers_held(step):
        raise CheckFailed(hint)
    passed.append(
        f"loss and gradients equal the unsplit model's on {len(CASES) + len(CLASS_CASES)} cases "
        "(1 to 4 stages, "
        "uneven micro-batches, fewer rows than micro-batches; loss_fn: mse_loss, huber_loss, "
        "L1Loss, smooth_l1_loss, cross_entropy on class indices), added to the gradients the "
        "stages had before the step"
    )
    passed.append(
        "each stage ran 1F1B's order: min(S - k - 1, M) forwards, then one forward and one "
        "backward in turn, then the last backwards (the orders your own: no d2lgpu.pipeline "
        "order helper ran)"
    )
    peaks = [in_flight_peak(o) for o in one_f_one_b_order(4, 8)]
    passed.append(f"so with 4 stages and 8 micro-batches, at most {peaks} micro-batches in flight")
