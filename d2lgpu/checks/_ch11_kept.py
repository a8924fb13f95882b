"""The hints for a wrong result that is a result kept between calls: ``11.memory``'s
(:func:`kept_hint`) and ``11.plan``'s (:func:`kept_plan_hint`); and ``11.memory``'s calls made
to show one (:func:`nothing_kept`), ``measured`` giving rank 0's bytes."""

from __future__ import annotations

from ._util import CheckFailed

__all__ = ["kept_hint", "kept_plan_hint", "nothing_kept", "where"]

_PLANS = ("ddp", "zero1", "fsdp2")

# what each field of an 11.plan run (model, GPU, number of GPUs, global batch) is called
FIELDS = ("the model", "the GPU", "the number of GPUs", "the batch")


def kept_hint(predict, call: str, got: dict, history, args) -> None:
    """Where a wrong result is a result kept between calls: asked again, the same arguments
    give another result (a running count), or it is what a call on other shapes returned (one
    on the same shapes and other ranks may be a rank count written in, not a cache)."""
    shapes, plan, world_size = args
    again = predict([tuple(s) for s in shapes], plan, world_size)
    earlier = next((c for c, _, kept, on in history if kept == dict(got) and on != shapes), None)
    ranks = next((c for c, _, kept, on in history if kept == dict(got) and on == shapes), None)
    if ranks is not None and again == got and earlier is None and _on_one_rank(args, got, predict):
        deal = (
            ", or left out of ZeRO-1's deal (rank 0 takes the largest tensor, then whatever the "
            "greedy deal gives it, which depends on the number of ranks)"
            if plan == "zero1"
            else ""
        )
        raise CheckFailed(
            f"{call} returned {dict(got)}, what {ranks} returned, for another number of ranks, "
            "and so it does on 1 rank, where rank 0 holds every tensor: world_size was not used, "
            f"either written in, kept from that call (a cache keyed without it){deal}. Compute "
            "every call from the ranks it is given"
        )
    if again == got and earlier is None:
        return
    why = (
        f"the same call made again returned {again}"
        if again != got
        else f"what {earlier} returned, an earlier call"
    )
    raise CheckFailed(
        f"{call} returned {dict(got)}, {why}: it keeps something between calls (a cache keyed "
        "on some arguments but not all, a count at module level that is never reset, or a "
        "list given as a default argument, def f(..., owned=[]), which every call shares). "
        "Compute every call from the shapes, the plan and the ranks it is given"
    )


def where(case) -> str:
    """An 11.plan run in words."""
    name, gpu, n_gpus, batch = case
    return f"{name} on {n_gpus} x {gpu}, global batch {batch}"


def kept_plan_hint(case, got, again, history, key="", fresh=None) -> tuple[str, str] | None:
    """Where 11.plan's wrong plan ``got`` for ``case`` is a plan kept between calls: why, and
    what to do. The same run asked again gives another plan (``again``), or ``got`` is the
    plan returned for an earlier run of ``history`` ((run, plan, a copy of it) each) that
    differs from this one in one field alone (``key``, where given: only the run just
    before, in that field), and where no key is given, ``fresh()`` says that the same run
    with a batch never asked is planned right (a rule that does not read that field would
    be wrong there too). None where neither holds."""
    if again != got:
        return f"asked again, it returned {again!r}", (
            "A plan (or an estimate) kept between calls under a key without every argument "
            "answers for another run: key it on every argument, or keep nothing"
        )
    if key:
        runs = [(history[-1][0], key)] if history and history[-1][2] == got else []
    else:
        runs = [(run, FIELDS[differ[0]]) for run, _, kept in history if kept == got
                if len(differ := [i for i in range(4) if run[i] != case[i]]) == 1]  # fmt: skip
    if not runs or (fresh is not None and not fresh()):
        return None
    earlier, key = runs[-1]
    return (
        f"what you returned for {where(earlier)}, asked before, a run that differs in {key} alone",
        (
            f"A plan (or an estimate) kept between calls under a key without {key} answers "
            "for another run: key it on every argument, or keep nothing"
        ),
    )


def _on_one_rank(args, got: dict, predict) -> bool:
    """Whether ``predict`` gives ``got`` on 1 rank too, where rank 0 holds every tensor: a
    result that ignores world_size does; a deal of another rule that gives rank 0 the same
    tensors on two world sizes does not."""
    shapes, plan, _ = args
    try:
        return predict([tuple(s) for s in shapes], plan, 1) == got
    except Exception:  # noqa: BLE001 (the answer's error: the other hints then)
        return False


def nothing_kept(predict, big, small, measured) -> None:
    """Two calls with the same plan and ranks in a row, the second on the same list object
    refilled with other shapes: a result or a running count kept between calls shows."""
    pairs = [  # on 8 ranks; in the last two, as many tensors, which ZeRO-1 deals otherwise
        (big, small),
        (((4, 2), (8,)), ((8, 1), (2, 4))),
        (((4, 2), (8,)), ((2,), (8, 2))),
    ]
    for (first, second), plan in ((pair, plan) for pair in pairs for plan in _PLANS):
        given = list(first)
        predict(given, plan, 8)
        given[:] = second  # the same list, refilled (a cache keyed by id(shapes) misses it)
        got = [predict(given, plan, 8), predict(list(second), plan, 8)]
        want = measured(second, plan, 8)
        for call, result in zip(("the same list refilled", "a new list"), got, strict=True):
            if isinstance(result, dict) and all(result.get(k) == want[k] for k in want):
                continue
            raise CheckFailed(
                f"predict(shapes, {plan!r}, 8) called after a call on other shapes with the "
                f"same plan and ranks returned {result!r} for {call} of {list(second)}, where "
                f"rank 0 holds {want}: it kept something from an earlier call (a cache keyed "
                "by id(shapes), or a count at module level, reset only when the ranks "
                "change). Compute every call from the shapes it is given"
            )
