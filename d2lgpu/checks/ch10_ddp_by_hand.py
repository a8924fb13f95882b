"""Checkers of chapter 10's hand-built DDP: ``10.overlap_ddp`` and ``10.shard_optimizer``.

``10.overlap_ddp``: the answer is a class ``OverlappedDDP(model, bucket_bytes)`` whose
``__init__`` registers ``register_post_accumulate_grad_hook`` hooks that launch
``dist.all_reduce(..., async_op=True)`` on buckets of gradients as they fill, and whose
``finish()``, called after ``loss.backward()`` and before ``optimizer.step()``, waits on
every handle and leaves the average over the ranks in each ``p.grad``. Buckets are filled in
reverse order of ``model.parameters()`` (the order backward produces them), and a bucket
is closed once it holds ``bucket_bytes`` or more (DDP's rule; closing before it would exceed
the cap is accepted too, and the prompt says so). The checker runs it on two gloo ranks
(:mod:`._ranks`) with a bucket per parameter, with a cap equal to a running total of the
parameters' bytes (where ``>=``, ``>`` and closing before the cap give three different sets
of buckets) and with a cap that makes two buckets, then on three ranks with the last cap
(so that a division by 2 written in is seen), in float64, after a first instance over the
model in float32 (a plan kept by the class carries over); it records, in each rank, the order of the
hooks' calls, the all-reduces' launches (and any other collective) and the waits on their
handles (``wait()``, the future's, ``torch.futures.wait_all``), and reads from it: an
all-reduce launched before ``backward`` returned, each bucket launched from the hook of its
own last gradient (no later), no wait (and no blocking all-reduce) inside backward, every
handle of the step waited once by ``finish``, none of an earlier step's, no gradient sent
twice and no all-reduce that is not a bucket, and the bucket sizes; then the gradients
against one process on the global batch.

``10.shard_optimizer`` (ZeRO-1): the answer is a class ``ShardedOptimizer(params,
optimizer_cls, **kwargs)`` with ``step()`` and ``zero_grad()``: each rank builds
``optimizer_cls`` over its own share of the parameters only, steps it, then broadcasts each
parameter from the rank that owns it. The checker averages the gradients itself (as DDP
does), runs 3 Adam steps on 2, 4 and 3 gloo ranks (with other keyword arguments on each,
none at Adam's defaults: ``ADAM_KWARGS``), compares the parameters with DDP's
(one process on the global batch) within 1e-6, and counts each rank's optimizer-state bytes
against 1/n of the whole (the model's 8 parameters are the same size, so an even split
exists on 2 and 4 ranks; on 3, shares of 3, 3 and 2, and shares of 8 // 3 leave two
parameters without an owner). Last, on 2 ranks, after a first instance over 3 other
parameters, a model of weights and biases in float64, in an order of their own (``UNEVEN``):
owners given by index, or by consecutive shares of the count, balance the count there, not
the bytes; loads kept by the class carry over from the first
instance; a flat buffer in float32 rounds the parameters (held within 1e-12); one bias has no
gradient at the first step, which Adam skips there (an optimizer built lazily at the first
step, or zeros made where there was no gradient, step it otherwise). Parameters
sent as objects (dist.broadcast_object_list: pickles, host copies) are refused in every run.

Here: both checks, and the rules that read ``10.overlap_ddp``'s records. What a rank runs
and the one-process references are in :mod:`._ch10_overlap` (the rules that read its
records in :mod:`._ch10_overlap_rules`) and :mod:`._ch10_zero`, ZeRO-1's comparison with DDP in :mod:`._ch10_zero_compare`
and its other rules in :mod:`._ch10_zero_rules`, what both share in :mod:`._ch10_by_hand`.
"""

from __future__ import annotations

import torch

from . import _ranks
from ._ch10_buckets import bucket_numels, check_buckets, check_launch_dtype, early_launch
from ._ch10_by_hand import STEPS, first_named, values_from_elsewhere
from ._ch10_overlap import (
    FIRST as OVERLAP_FIRST,
)
from ._ch10_overlap import (
    CapJob,
    overlap_reference,
)
from ._ch10_overlap_rules import read_step_log, setup_error, step_logs
from ._ch10_zero import ADAM_KWARGS, UNEVEN, ZeroJob, zero_job, zero_net, zero_reference
from ._ch10_zero import FIRST as ZERO_FIRST
from ._ch10_zero_compare import compare_zero
from ._ch10_zero_kept import compare_kept
from ._ch10_zero_rules import (
    compare_built,
    compare_calls,
    compare_given,
    compare_held,
    compare_state,
    compare_zero_grad,
)
from ._ch10_zero_rules import setup_error as zero_setup_error
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_overlap_ddp", "check_shard_optimizer", "bucket_numels"]

# bytes: a bucket per parameter; two buckets of the OverlapNet; a cap equal to a running
# total of the parameters' bytes (12 + 192 + 64, in reverse order), where closing at >= and
# at > give other buckets, and closing before the cap others again (after 512, where a
# bucket counted in elements is told apart from one closed at >)
BUCKET_CAPS = (1, 512, 268)
THREE_RANKS_CAP = 512

# --- 10.overlap_ddp: reading what the ranks recorded ---------------------------------------


_KEPT = (
    "; the steps before it were right, so look for what your class keeps from one step to "
    "the next (p.grad tensors, or views of them: zero_grad() sets p.grad to None, and "
    "backward makes new ones)"
)


def _compare_overlap_grads(record, world, cap, step, launched=()):
    s = record["steps"][step]
    for name, got, whole, local in zip(record["names"], s["got"], s["whole"], s["local"],
                                       strict=True):  # fmt: skip
        what = f"{name}'s gradient (bucket_bytes={cap}, step {step})"
        if got is None:
            raise CheckFailed(f"{what} is None after finish(): leave the average in p.grad")

        def close(value, got=got):
            return torch.allclose(got, value, rtol=1e-5, atol=1e-7)

        if close(whole):
            continue
        if close(whole * world):
            raise CheckFailed(
                f"{what} is the sum over the ranks: forgetting to divide by "
                "dist.get_world_size() (before the all-reduce, or after it in finish())"
            )
        if close(local / world) and not close(whole):
            raise CheckFailed(
                f"{what} is this rank's own gradient divided by the world size: what its "
                "bucket held before the all-reduce was done. In finish(), handle.wait() first, "
                "then copy the averaged flat tensor back into p.grad"
            )
        if launched and close(local) and sum(launched) >= sum(record["numels"]):
            raise CheckFailed(
                f"{what} is still this rank's own gradient, though every gradient was "
                "all-reduced: the all-reduce's result never reached p.grad. dist.all_reduce "
                "works in place on the tensor it is given: copy back that same tensor (not "
                "one made before it, as flat is when you all-reduce flat / world)"
            )
        if close(local) and not close(whole):
            raise CheckFailed(
                f"{what} was never reduced (it is still this rank's own): a parameter never "
                "reduced. Put every parameter in a bucket, launch the last, partly filled "
                "bucket too, and copy the averaged buckets back into p.grad in finish()"
            )
        if close(whole / world):
            raise CheckFailed(f"{what} is divided by the world size twice")
        if world != 2 and close(whole * world / 2):
            raise CheckFailed(
                f"{what} ({world} ranks) is divided by 2, not by the world size: divide by "
                "dist.get_world_size()"
            )
        if values_from_elsewhere(got, s["whole"]):
            raise CheckFailed(
                f"{what} holds averages, but other gradients' (or other places'): the flat "
                "buffer was filled in one order and split back in another. Copy back the "
                "all-reduced tensor in the order, and with the sizes, you concatenated it in "
                "(the bucket's own order, not the order the gradients arrived in)"
            )
        err = (got - whole).abs().max().item()
        raise CheckFailed(
            f"{what} is not the average over the ranks (largest difference {err:.3g}): each "
            "p.grad must end as the sum over the ranks divided by the world size"
        )


@one_cpu_thread
def check_overlap_ddp(answer, passed: list[str]) -> None:
    """``10.overlap_ddp``: hooks, async all-reduces and buckets, on 2 gloo ranks."""
    if not callable(answer):
        raise CheckFailed(f"the answer must be the class OverlappedDDP, got {answer!r}")
    reference = overlap_reference()
    for cap in BUCKET_CAPS:
        records = _overlap_run(answer, cap, _ranks.WORLD)
        world = len(records)
        for rank, record in enumerate(records):
            for name, got, ref in zip(record["names"], record["final"], reference, strict=True):
                if not torch.allclose(got, ref, rtol=1e-4, atol=1e-6):
                    raise CheckFailed(
                        f"after {STEPS} steps rank {rank}'s {name} differs from one process "
                        "trained on the global batch, though each step's gradients were right"
                    )
        what = "a bucket per parameter" if cap == 1 else f"buckets of {cap} bytes"
        passed.append(
            f"{what}: each step every bucket launched from its last gradient's hook, before "
            "backward returned; none waited inside it; every handle waited in finish(); the "
            "buckets in reverse order"
        )
    passed.append(
        f"gradients equal one process on the global batch, on {world} gloo ranks, "
        f"{STEPS} steps; final parameters too"
    )
    # a division by 2 written in shows on 3 ranks, 4 bytes an element written in in float64,
    # buckets filled in the order the gradients arrive where that is not the reverse order
    # and a first instance, over the model in float32, before: nothing carries over from it
    _overlap_run(answer, THREE_RANKS_CAP, 3, torch.float64, out_of_order=True, first=True)
    passed.append(
        f"on 3 gloo ranks too ({THREE_RANKS_CAP}-byte buckets, the model in float64, its layers "
        "registered in another order than forward runs them, a first OverlappedDDP built "
        "before over the model in float32): the average of the ranks' gradients, each bucket "
        "launched from its last gradient's hook"
    )


def _overlap_run(answer, cap, world, dtype=torch.float32, out_of_order=False, first=False):
    """Run the answer on ``world`` ranks with buckets of ``cap`` bytes, check their records
    (:func:`_overlap_checks`); the ranks' records."""
    records = _ranks.run_ranks(answer, world, job=CapJob(cap, dtype, out_of_order, first))
    with first_named(records, OVERLAP_FIRST):
        _overlap_checks(records, world, cap)
    return records


def _overlap_checks(records, world, cap):
    """The rules on the records of a run on ``world`` ranks: what the answer built, then each
    step's log (made from the recorded calls, in place), its buckets and its gradients."""
    for record in records:
        error = setup_error(record["setup"])
        if error is not None:
            raise CheckFailed(error)
        check_launch_dtype([s["log"] for s in record["steps"]], record.get("itemsize", 4), cap)
        for one, log in zip(record["steps"], step_logs([s["log"] for s in record["steps"]]),
                            strict=True):  # fmt: skip
            one["log"] = log
    for step in range(STEPS):
        for record in records:
            launched = read_step_log(
                record["steps"][step]["log"], cap, step, record["numels"], record.get("itemsize", 4)
            )
            try:
                _compare_overlap_grads(record, world, cap, step, launched)
            except CheckFailed as wrong:  # a bucket sent early explains a wrong gradient
                early = early_launch(record, record["steps"][step]["log"], cap, step)
                raise CheckFailed(early or wrong.hint + _KEPT * bool(step)) from None
            check_buckets(launched, record, cap, step, record["steps"][step]["log"])
    for record in records:  # right here, but only because backward ran in the order expected
        if record["setup"].get("unhooked"):
            raise CheckFailed(
                f"{', '.join(record['setup']['unhooked'])} got no hook: register one on every "
                "parameter (p.register_post_accumulate_grad_hook), and launch a bucket once the "
                "hooks of all its parameters have run (count them): backward need not produce "
                "the gradients in the order you expect"
            )


@one_cpu_thread
def check_shard_optimizer(answer, passed: list[str]) -> None:
    """``10.shard_optimizer``: ZeRO-1 against DDP with Adam, on 2, 4 and 3 gloo ranks."""
    if not callable(answer):
        raise CheckFailed(f"the answer must be the class ShardedOptimizer, got {answer!r}")
    numels = [p.numel() for p in zero_net().parameters()]
    for world in (2, 4, 3):
        records = _ranks.run_ranks(answer, world, job=zero_job)
        for record in records:
            error = zero_setup_error(record["setup"])
            if error is not None:
                raise CheckFailed(error)
        compare_given(records)
        compare_built(records, world)
        compare_zero_grad(records)
        compare_zero(records, world)
        passed.append(
            f"{world} ranks: parameters equal DDP's after each of {STEPS} Adam steps "
            f"(within 1e-6, with {ADAM_KWARGS[world]}), the same on every rank"
        )
        compare_state(records, world, numels)
        compare_held(records, world)
        history: list = []  # DDP with Adam's, each step's, filled by zero_reference
        zero_reference(world, kwargs=ADAM_KWARGS[world], history=history)
        compare_kept(records, history, ADAM_KWARGS[world].get("weight_decay", 0.0))
        within = "" if len(numels) % world == 0 else " (within one parameter)"
        passed.append(
            f"{world} ranks: each parameter's Adam state on one rank only, 1/{world} of the "
            f"whole on each{within}, after each step and during it, and no moments of "
            "another rank's parameters kept elsewhere, nor of its own kept twice"
        )
        compare_calls(records)
        passed.append(f"{world} ranks: step() sends each parameter once and reduces nothing")
    _uneven_run(answer)
    passed.append(
        "2 ranks, a model with weights and biases (256 and 16 elements) in float64, one bias "
        "without a gradient at the first step, after a first ShardedOptimizer over other "
        "parameters: "
        "parameters equal DDP's after each step (within 1e-12), each rank's Adam state "
        "1/2 of the whole within the largest parameter's, each parameter sent once in float64"
    )


def _uneven_run(answer):
    """On 2 ranks, the model of parameters of two sizes in float64 (:data:`._ch10_zero.UNEVEN`),
    after a first ShardedOptimizer over 3 other parameters: owners balanced by bytes (not by
    count, nor from the first one's loads), and buffers in the parameters' dtype."""
    records = _ranks.run_ranks(answer, 2, job=ZeroJob(UNEVEN, first=True))
    with first_named(records, ZERO_FIRST):
        for record in records:
            error = zero_setup_error(record["setup"])
            if error is not None:
                raise CheckFailed(error)
        compare_given(records)
        compare_built(records, 2)
        compare_zero_grad(records)
        compare_zero(records, 2, UNEVEN)
        compare_state(records, 2, UNEVEN.numels(), UNEVEN.itemsize)
        compare_held(records, 2)
        compare_calls(records, UNEVEN)
