"""Checker of chapter 9's ``09.pipeline``: a micro-batched training step over two stages.

The answer is ``pipeline_step(stage1, stage2, x, y, loss_fn, micro_batches)``: it splits
the batch into micro-batches, runs each through ``stage1`` and then ``stage2`` (each on
its own device: ``next(stage.parameters()).device``), and accumulates the gradients of
``loss_fn`` over the whole batch (a mean) into both stages; it returns that loss.

The checks, on batches of uneven sizes and smaller than the number of micro-batches,
with several ``loss_fn`` (cross_entropy, also with label smoothing through
``functools.partial`` and with probabilities as targets, ``multi_margin_loss``, ``nll_loss``):

* the loss and both stages' gradients equal the unsplit model's (:mod:`._ch09_grads`); the stages start
  with non-zero gradients, which the step must add to (the caller zeros them, not
  the step: a ``zero_grad()`` inside it is seen and named, also by the first forward; and
  gradients scaled with the step's: :mod:`._ch09_given_grads`);
* ``min(M, n)`` non-empty micro-batches, each through each stage once, stage 1's input
  without ``requires_grad`` (:mod:`._ch09_pipeline_rules`);
* the schedule, from the stages' logged calls: stage 2 works on micro-batch 0 before
  stage 1 has run the last one, and every forward runs before any backward (GPipe): a
  backward per micro-batch between the forwards makes two GPUs, each running its work
  in order, take turns;
* devices (:mod:`._ch09_stages`): stage 1 on ``cuda:0`` and stage 2 on ``cuda:1``,
  real GPUs or pretend ones, so that neither stage is on the CPU where ``x`` and ``y``
  arrive (with one GPU, also stage 1 on the CPU and stage 2 on it); each stage's input
  and ``loss_fn``'s targets must be on its device, and a hint says which tensor went
  where; the parameters stay where they are, and a step reads a device value on the
  host at most once, and not before the last forward (each read would make the host
  wait, so stage 1 could not run ahead; ``save_on_cpu``'s copies are named); a gradient
  handed to backward on the other stage's device is a mix; each row of ``x`` and ``y`` goes to a device
  once, not the whole batch at every micro-batch; no ``torch.autocast``, whose lower
  precision a pretend GPU cannot show; ``loss_fn(out, target)``, in that order.

``09.checkpoint`` is checked in :mod:`d2lgpu.checks.ch09_checkpointing`.
"""

from __future__ import annotations

import functools

import torch
from torch import nn

from ._ch09_1f1b_log import graph_keeps_saved
from ._ch09_given_grads import check_given, expect_given
from ._ch09_grads import (
    check_grads,
    check_loss,
    check_nothing_left,
    hooks_on,
    kept_by,
    made_by_step,
    start_grads,
)
from ._ch09_grads import reference as _reference
from ._ch09_pipeline_rules import (
    cast_refused,
    check_input_grad,
    check_nonempty,
    check_raced,
    check_reads,
    check_schedule,
    check_split,
)
from ._ch09_stages import (
    LoggedStage,
    Misplaced,
    check_autocast,
    check_copies,
    check_left_as_given,
    check_read_times,
    layouts,
    misplaced_hint,
    mix_hint,
    moves,
    watched_loss,
)
from ._kit import run_cases
from ._kit_process import defaults_kept
from ._kit_seeds import reseeds_named
from ._pretend import watching
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_pipeline", "CASES"]

# (rows in the batch, micro-batches asked for): uneven splits, fewer rows than micro-batches
# (rows, micro-batches); the last in float64, stages and batch: a cast to float32 shows
CASES = [(10, 4), (3, 4), (8, 1), (7, 3), (6, 4), (5, 3)]
DOUBLE = len(CASES) - 1
WIDTH = 6
# each case's loss_fn and whether its targets are probabilities, in CASES's order: not always
# cross_entropy; each a mean over the rows that also takes reduction="sum"
LOSSES = [
    (nn.functional.cross_entropy, False),
    (nn.functional.multi_margin_loss, False),
    (functools.partial(nn.functional.cross_entropy, label_smoothing=0.1), False),
    (nn.functional.cross_entropy, True),
    (nn.functional.nll_loss, False),
]


def _model(seed: int, log: list):
    torch.manual_seed(seed)
    s1 = nn.Sequential(nn.Linear(WIDTH, 16), nn.Tanh(), nn.Linear(16, 16), nn.Tanh())
    s2 = nn.Sequential(nn.Linear(16, 16), nn.Tanh(), nn.Linear(16, 3))
    return LoggedStage(1, s1, log), LoggedStage(2, s2, log)


def _run(answer, stages, x, y, loss_fn, m, pretend, layout):
    """Run the step; ``(loss, watch, error, seen)``, where ``error`` is a :class:`Misplaced`
    tensor, or torch's device error (a real GPU's; the pretend ones record mixes instead),
    and ``seen`` what :func:`._ch09_stages.moves` saw.
    ``layout``: the stages' devices, which pretend GPUs put them on."""
    with watching(pretend) as watch:
        if pretend:
            for stage, device in zip(stages, layout, strict=True):
                for p in stage.parameters() if device.type == "cuda" else ():
                    watch.put(p, str(device))
                    watch.put(p.grad, str(device))
        devices = list(layout)  # where the stages are, moved there or pretended
        for stage in stages:
            stage.reads = watch.reads
        try:
            with moves(x, y) as seen, reseeds_named("your step"):
                watch.before = kept_by(answer, stages)
                loss = answer(stages[0], stages[1], x, y, watched_loss(loss_fn, devices[1]), m)
        except Misplaced as error:
            return None, watch, error, seen
        except RuntimeError as error:
            if "device" not in str(error).lower():
                raise
            return None, watch, error, seen
    return loss, watch, None, seen


def _placement(stages) -> tuple[list[int], list[torch.device]]:
    """Which parameter objects the stages hold, and where each is."""
    params = [*stages[0].parameters(), *stages[1].parameters()]
    return [id(p) for p in params], [p.device for p in params]


def _check_devices(watch, stages, before, where, devices: tuple, error=None) -> None:
    # ``before`` is _placement() before the step; the step's caller holds those parameters, so
    # a new parameter cannot take an old one's id. module.to() on the pretend GPU swaps a
    # parameter's data for a copy, seen as a mix by that name. On a real GPU a mix is
    # torch's error (``error``), checked in the same order: replaced parameters first.
    if _placement(stages) != before or any(
        m.startswith("_has_compatible_shallow_copy_type") for m in watch.mixed
    ):
        raise CheckFailed(
            f"for {where}, the stages' parameters were replaced or moved: leave each stage on "
            "its device and move the activations between them instead"
        )
    if isinstance(error, Misplaced):
        raise CheckFailed(f"for {where}, {misplaced_hint(error, devices[0], devices[1])}")
    if error is not None:
        line = str(error).splitlines()[0][:120]
        raise CheckFailed(
            f"for {where}, {mix_hint(line, devices[0], devices[1], error.__traceback__)}"
        )
    if watch.mixed:
        raise CheckFailed(f"for {where}, {mix_hint(watch.mixed[0], devices[0], devices[1])}")


@one_cpu_thread
def check_pipeline(answer, passed: list[str]) -> None:
    """``09.pipeline``: see the module docstring."""
    if not callable(answer):
        raise CheckFailed(
            "pass the function itself, pipeline_step, not an object of type "
            f"{type(answer).__name__}"
        )
    # Full float32 products on a GPU, whatever the notebook set (chapter 4's TF32 switch):
    # the gradients are compared with the CPU's to 1e-4.
    precision = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision("highest")
    try:  # the precision as the step found it, "highest", when it returns
        with defaults_kept("your step"):
            _check_cases(answer)  # it seeds torch's generator; check() restores the learner's
    finally:
        torch.set_float32_matmul_precision(precision)
    sizes = ", ".join(f"{n} in {m}" for n, m in CASES)
    passed.append(
        f"the loss equals the unsplit model's (n rows in M micro-batches: {sizes}, the last "
        "in float64; "
        "loss_fn: cross_entropy, also with label smoothing and with probabilities as "
        "targets, multi_margin_loss, nll_loss)"
    )
    passed.append(
        "both stages' gradients equal the unsplit model's (each micro-batch weighted), "
        "added to the gradients they had before the step"
    )
    passed.append("min(M, n) non-empty micro-batches, each through stage 1, then stage 2, once")
    passed.append(
        "stage 2 started micro-batch 0 before stage 1 had run the last one; every forward "
        "before any backward (GPipe's schedule)"
    )
    passed.append(
        "activations and targets moved to stage 2's device (also with the stages' devices "
        "swapped, and with stage 2 on the CPU, each copy there used once it has landed), "
        "parameters left where they were, at most one host read per step, none before the "
        "last forward"
    )


def _loss_and_targets(case: int, n: int):
    """Case ``case``'s loss_fn (not always cross_entropy) and ``n`` targets for it."""
    loss_fn, soft = LOSSES[case % len(LOSSES)]
    if soft:
        return loss_fn, torch.softmax(torch.randn(n, 3), dim=1)
    return loss_fn, torch.randint(3, (n,))


def _check_cases(answer) -> None:
    kept: list = []  # the first case's stages, which the last case moves
    cases = [
        (answer, seed, n, m, *where, False, kept)
        for where in layouts()
        for seed, (n, m) in enumerate(CASES)
    ]
    # Once more with the first case's stages, on each other's devices: devices found at the
    # first call and kept (a global, a cache keyed by the stage) send the micro-batches to the
    # wrong stage.
    # New data of the first case's shape (seed len(CASES)): micro-batches cached by shape are
    # another call's.
    dev1, dev2, pretend = layouts()[0]
    cases.append((answer, len(CASES), *CASES[0], dev2, dev1, pretend, True, kept))
    # Last, the fourth case with stage 2 on the CPU, the notebook's layout on one GPU: the
    # activations come to the host, where a copy made with non_blocking=True must be waited for
    cases.append((answer, 3, *CASES[3], dev1, torch.device("cpu"), pretend, False, kept))
    run_cases(cases, _check_case)


def _check_case(answer, seed, n, m, dev1, dev2, pretend, swapped, kept) -> None:
    where = f"a batch of {n} rows in {m} micro-batch{'es' if m > 1 else ''}"
    where += ", stages and batch in float64" if seed == DOUBLE else ""
    first = layouts()[0]  # a later layout is a GPU machine's real one, after the pretend one
    if not pretend or swapped or (dev1, dev2, pretend) != first:  # say which layout
        where += f" (stage 1 on {dev1}, stage 2 on {dev2})"
    log: list = []
    stage1, stage2 = _model(seed, log)  # seeds torch's generator: the case's data follow
    x = torch.randn(n, WIDTH)
    loss_fn, y = _loss_and_targets(seed, n)
    if seed == DOUBLE:
        stage1.double(), stage2.double()
        x, y = x.double(), (y.double() if y.is_floating_point() else y)
    ref = _reference(stage1, stage2, x, y, loss_fn, m)
    if swapped:  # the same two modules as the first case, this case's weights loaded
        for old, new in zip(kept, (stage1, stage2), strict=True):
            old.layers.load_state_dict(new.layers.state_dict())
            old.reset(log)
        stage1, stage2 = kept
    kept[:] = kept or [stage1, stage2]
    stage1.to("cpu" if pretend else dev1), stage2.to("cpu" if pretend else dev2)
    params = list(stage1.parameters()) + list(stage2.parameters())
    start = start_grads(params)
    expect_given((stage1, stage2), start)  # each stage notes its .grad at its first forward
    before = _placement((stage1, stage2))
    stage1.rows_of = x
    modes = [m.training for m in (*stage1.modules(), *stage2.modules())]
    hooks = hooks_on((stage1, stage2))
    try:
        run = _run(answer, (stage1, stage2), x, y, loss_fn, m, pretend, (dev1, dev2))
    except RuntimeError as refused:
        if seed != DOUBLE or ("dtype" not in str(refused) and "Double" not in str(refused)):
            raise
        raise cast_refused(refused, where) from None
    loss, watch, error, seen = run
    returned = [loss] if torch.is_tensor(loss) else []
    made = made_by_step(answer, (stage1, stage2), watch.before, returned)
    check_left_as_given((stage1, stage2), modes, pretend, where)
    try:
        _check_devices(watch, (stage1, stage2), before, where, (dev1, dev2), error)
    except CheckFailed as failed:
        if swapped:
            raise CheckFailed(
                f"{failed.hint}. This run swaps the stages' devices, which every earlier one "
                "passed: read each stage's device in every call (next(stage.parameters())"
                ".device), not once, in a first call whose devices are kept (a global, or a "
                "cache keyed by the stage: these are the first run's two stages, moved)"
            ) from None
        if (dev1, dev2, pretend) != first:
            raise CheckFailed(
                f"{failed.hint}. The runs with stage 1 on {first[0]} and stage 2 on {first[1]} "
                "passed: devices read once and kept (a global, a cache keyed by the stage) are "
                "theirs. Read each stage's device in every call (next(stage.parameters()).device)"
            ) from None
        raise
    check_raced(watch.raced, where)
    check_nonempty(log, where)
    check_split(stage1, where)
    check_autocast(seen[1], where)
    try:
        check_loss(loss, ref, where)
        check_grads(params, ref, start, where)
    except CheckFailed as failed:
        if not swapped:
            raise
        raise CheckFailed(
            f"{failed.hint}. This run gives new data in the shape of the first run, which "
            "passed: micro-batches or results kept from an earlier call (a cache keyed by "
            "shape, a global, functools.cache) are that call's. Split this call's x and y"
        ) from None
    check_given((stage1, stage2), lambda stage: stage.index, f"for {where},")
    if isinstance(loss, torch.Tensor) and graph_keeps_saved(loss):
        raise CheckFailed(
            f"for {where}, the loss you returned still holds activations its graph saved for "
            "backward: backward(retain_graph=True), or a loss no backward ran through, keeps "
            "every micro-batch's activations alive for as long as the caller holds the loss "
            "(a list of losses kept for logging holds them all). Run backward without "
            "retain_graph and return the loss detached (loss.detach()) or as a float"
        )
    check_schedule(log, n, m, where)
    check_nothing_left((stage1, stage2), hooks, made, f"for {where},")
    check_copies(seen[0], x, y, where)
    if dev2.type != "cpu":  # stage 2 on the CPU: each micro-batch's activations come there
        check_reads(watch.reads, where)
        check_read_times((stage1, stage2), where)
    check_input_grad((stage1, stage2), where)
