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
(so that a division by 2 written in is seen); it records, in each rank, the order of the
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
does), runs 3 Adam steps on 2 and on 4 gloo ranks (with other keyword arguments on each,
none at Adam's defaults: ``ADAM_KWARGS``), compares the parameters with DDP's
(one process on the global batch) within 1e-6, and counts each rank's optimizer-state bytes
against 1/n of the whole (the model's 8 parameters are the same size, so an even split
exists).

Here: both checks, and the rules that read ``10.overlap_ddp``'s records. What a rank runs
and the one-process references are in :mod:`._ch10_overlap` and :mod:`._ch10_zero` (with the
ZeRO-1 comparisons), what both share in :mod:`._ch10_by_hand`.
"""

from __future__ import annotations

import torch

from . import _ranks
from ._ch10_by_hand import STEPS
from ._ch10_overlap import CapJob, bucket_numels, overlap_reference
from ._ch10_zero import ADAM_KWARGS, compare_state, compare_zero, zero_job, zero_net
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_overlap_ddp", "check_shard_optimizer", "bucket_numels"]

# bytes: a bucket per parameter; two buckets of the OverlapNet; a cap equal to a running
# total of the parameters' bytes (12 + 192 + 64, in reverse order), where closing at >= and
# at > give other buckets, and closing before the cap others again (after 512, where a
# bucket counted in elements is told apart from one closed at >)
BUCKET_CAPS = (1, 512, 268)
THREE_RANKS_CAP = 512

# --- 10.overlap_ddp: reading what the ranks recorded ---------------------------------------

_WAIT_IN_HOOK = (
    "waiting inside the hook: {what} while backward was still running, so backward stops "
    "until that all-reduce is done and nothing overlaps. Keep the handle "
    "(dist.all_reduce(..., async_op=True)) and wait on it in finish(), before the step"
)


def _read_log(log, cap, step, total, buckets):
    """Check one step's log against the rules; the numels of its all-reduces, in order.
    ``buckets``: the bucket sizes (elements) each accepted rule gives."""
    launches = [e for e in log if e[0] == "launch"]
    where = f"(bucket_bytes={cap}, step {step})"
    if not launches and step > 0:
        raise CheckFailed(
            f"no dist.all_reduce in step {step}, though step 0 had some (bucket_bytes={cap}): "
            "the hooks run every step; reset what counts a bucket's ready gradients (and the "
            "list of handles) in finish(), ready for the next step"
        )
    if not launches:
        raise CheckFailed(
            f"no dist.all_reduce was called {where}: register a hook on each parameter "
            "(p.register_post_accumulate_grad_hook) that launches the all-reduce of its bucket "
            "(call it as dist.all_reduce, so that the checker sees it)"
        )
    other = next((e for e in log if e[0] == "other"), None)
    if other is not None:
        raise CheckFailed(
            f"besides the buckets' all-reduces, {other[1]} ran {_when(other[2])} {where}: an "
            "extra collective. Each step sends each bucket once, and nothing else"
        )
    sent = [e[1] for e in launches]
    if sum(sent) > total:
        _extra_launches(sent, buckets, where)
    for e in log:
        if e[0] == "wait" and e[2]:
            raise CheckFailed(_WAIT_IN_HOOK.format(what="a handle was waited on") + f" {where}")
        if e[0] == "launch" and e[3] and not e[2]:
            raise CheckFailed(
                _WAIT_IN_HOOK.format(what="an all_reduce without async_op=True blocked")
                + f" {where}"
            )
    if not any(e[3] for e in launches):
        raise CheckFailed(
            f"every all-reduce was launched after backward returned {where}: launch them from "
            "the hooks, as each bucket fills, so that they overlap the rest of backward"
        )
    finish = log.index(("finish returned",))
    waits = [e for e in log[:finish] if e[0] == "wait"]
    stale = next((e for e in waits if e[3] != step), None)
    if stale is not None:
        raise CheckFailed(
            f"a handle launched in step {stale[3]} was waited on again in step {step} "
            f"(bucket_bytes={cap}): the list of handles was never cleared, so each step waits "
            "on every earlier step's handles too. Clear it in finish(), after the waits"
        )
    waited = [e[1] for e in waits]
    async_launches = [i for i, e in enumerate(launches) if e[2]]
    missing = [i for i in async_launches if i not in waited]
    if missing:
        raise CheckFailed(
            f"{len(missing)} of {len(async_launches)} handles were never waited on before "
            f"finish() returned {where}: call handle.wait() on every one in finish(), before "
            "the gradients are read (the all-reduce may not be done yet)"
        )
    twice = next((i for i in async_launches if waited.count(i) > 1), None)
    if twice is not None:
        raise CheckFailed(
            f"the handle of all-reduce {twice} was waited on {waited.count(twice)} times {where}: "
            f"{len(waited)} waits for {len(async_launches)} launches. Wait on each handle once, "
            "in finish()"
        )
    return sent


def _when(in_backward) -> str:
    return "inside backward" if in_backward else "after backward returned"


def _extra_launches(sent, buckets, where):
    """The hint when the all-reduces carried more than the gradients: an all-reduce that is
    not a bucket, or a bucket sent twice."""
    for expected in buckets:
        rest = list(sent)
        for n in expected:
            if n not in rest:
                break
            rest.remove(n)
        else:
            strangers = [n for n in rest if n not in expected]
            if strangers:
                raise CheckFailed(
                    f"{len(sent)} all-reduces for {len(expected)} buckets {where}: the "
                    f"all-reduce of {strangers[0]} element(s) is not a bucket (the buckets hold "
                    f"{expected}), an extra collective. Each step sends each bucket once, "
                    "and nothing else"
                )
    raise CheckFailed(
        f"a bucket sent twice {where}: your all-reduces carried {sum(sent)} elements for "
        f"{sum(buckets[0])} elements of gradients. Launch each bucket once, when its last "
        "gradient arrives, and reset the count of ready gradients in finish() for the next step"
    )


def _compare_overlap_grads(record, world, cap, step):
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
        err = (got - whole).abs().max().item()
        raise CheckFailed(
            f"{what} is not the average over the ranks (largest difference {err:.3g}): each "
            "p.grad must end as the sum over the ranks divided by the world size"
        )


def _check_buckets(launched, record, cap, step, log):
    numels = record["numels"]
    sizes = [4 * n for n in numels]
    expected = [bucket_numels(sizes[::-1], numels[::-1], cap, rule) for rule in (True, False)]
    if any(launched == e for e in expected):
        _check_launched_when_ready(launched, numels[::-1], log, cap, step)
        return
    # > first: where it and elements give the same buckets (268), 512 told them apart
    if launched == bucket_numels(sizes[::-1], numels[::-1], cap + 1):
        raise CheckFailed(
            f"with bucket_bytes={cap} (step {step}) your buckets hold {launched} elements: a "
            "bucket closed only once it held MORE than bucket_bytes (>). DDP closes it once it "
            f"holds bucket_bytes or more (>=), which gives {expected[0]}"
        )
    if launched == bucket_numels(numels[::-1], numels[::-1], cap):
        raise CheckFailed(
            f"with bucket_bytes={cap} (step {step}) your buckets hold {launched} elements: "
            "the buckets were filled counting elements (numel), not bytes. A parameter takes "
            f"p.numel() * p.element_size() bytes; in bytes the buckets are {expected[0]}"
        )
    forward = [bucket_numels(sizes, numels, cap, rule) for rule in (True, False)]
    if any(sorted(launched) == sorted(f) for f in forward):
        raise CheckFailed(
            f"buckets in forward order (bucket_bytes={cap}): your buckets hold {launched} "
            "elements, as if filled from the first layer; backward produces the last layer's "
            f"gradients first, so fill them in reverse order of model.parameters(): {expected[0]}"
        )
    raise CheckFailed(
        f"with bucket_bytes={cap} (step {step}) your all-reduces carried {launched} elements, in "
        f"that order; buckets filled in reverse order of model.parameters(), each closed once it "
        f"holds bucket_bytes or more, carry {expected[0]}"
    )


def _check_launched_when_ready(launched, numels, log, cap, step):
    """Each bucket launched as soon as its last gradient was ready, read from the log's order."""
    counts, i = [], 0  # parameters in each bucket, from the buckets' sizes
    for bucket in launched:
        filled = 0
        while filled < bucket:
            filled, i = filled + numels[i], i + 1
        counts.append(i)
    ready, j = 0, 0
    for event in log:
        if event[0] == "ready":
            ready += 1
        elif event[0] == "launch":
            if ready > counts[j]:
                raise CheckFailed(
                    f"bucket {j} (bucket_bytes={cap}, step {step}) was launched only after "
                    f"{ready} gradients were ready, though its last one was gradient "
                    f"{counts[j]}: launch each bucket from the hook of its own last gradient, "
                    "not later, so that it overlaps the rest of backward"
                )
            j += 1


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
    _overlap_run(answer, THREE_RANKS_CAP, 3)  # a division by 2 written in shows on 3 ranks
    passed.append(
        f"on 3 gloo ranks too ({THREE_RANKS_CAP}-byte buckets): the average of the ranks' "
        "gradients, each bucket launched from its last gradient's hook"
    )


def _overlap_run(answer, cap, world):
    """Run the answer on ``world`` ranks with buckets of ``cap`` bytes; check each step's
    log and gradients on every rank; the ranks' records."""
    records = _ranks.run_ranks(answer, world, job=CapJob(cap))
    for record in records:
        if "error" in record:
            raise CheckFailed(record["error"])
    numels = records[0]["numels"]
    total = sum(numels)
    sizes = [4 * n for n in numels][::-1]
    buckets = [bucket_numels(sizes, numels[::-1], cap, rule) for rule in (True, False)]
    for step in range(STEPS):
        for record in records:
            launched = _read_log(record["steps"][step]["log"], cap, step, total, buckets)
            _compare_overlap_grads(record, world, cap, step)
            _check_buckets(launched, record, cap, step, record["steps"][step]["log"])
    return records


@one_cpu_thread
def check_shard_optimizer(answer, passed: list[str]) -> None:
    """``10.shard_optimizer``: ZeRO-1 against DDP with Adam, on 2 and 4 gloo ranks."""
    if not callable(answer):
        raise CheckFailed(f"the answer must be the class ShardedOptimizer, got {answer!r}")
    numels = [p.numel() for p in zero_net().parameters()]
    for world in (2, 4):
        records = _ranks.run_ranks(answer, world, job=zero_job)
        for record in records:
            if "error" in record:
                raise CheckFailed(record["error"])
        compare_zero(records, world)
        passed.append(
            f"{world} ranks: parameters equal DDP's after each of {STEPS} Adam steps "
            f"(within 1e-6, with {ADAM_KWARGS[world]}), the same on every rank"
        )
        compare_state(records, world, numels)
        passed.append(
            f"{world} ranks: each parameter's Adam state on one rank only, 1/{world} of the "
            "whole on each"
        )
