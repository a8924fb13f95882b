"""``10.bus_bandwidth``'s checker, :func:`check_bus_bandwidth`, and its edges: one rank,
where each collective's factor at n = 1 holds (0 for the three that move data between
ranks, 1 for a broadcast), and a process whose environment names another world size
(``WORLD_SIZE``, as torchrun sets it), which the answer's numbers must not read: they are of
the run whose ``world_size`` it was given."""

from __future__ import annotations

import os
from unittest import mock

from ._ch10_bandwidth import (
    CASES,
    FACTORS,
    bandwidth_mistake,
    call,
    close,
    fixed_for_two_ranks,
    kept_hint,
    reference,
    unknown_collective_hint,
)
from ._util import CheckFailed

__all__ = ["check_bus_bandwidth", "check_edges"]

ONE = (2**20, 1e-3, 1)
FORMULA = {
    "all_reduce": "2 (1 - 1) / 1",
    "all_gather": "(1 - 1) / 1",
    "reduce_scatter": "(1 - 1) / 1",
}
GIVEN, ENVIRONMENT = 2, 8  # the world size given, and the one the environment names


def _one_rank(bandwidths, earlier) -> None:
    # The broadcast first: where it is wrong no earlier call on 1 rank returned its busbw of 0
    # (a shortcut for 1 rank is no value kept); a factor kept then shows on the all_reduce.
    for collective in sorted(FACTORS, key=lambda c: c != "broadcast"):
        got, want = call(bandwidths, ONE, collective), reference(*ONE, collective)
        if all(map(close, got, want)):
            earlier.append((ONE, collective, got))
            continue
        why = (
            f": a broadcast's factor is 1 at every world size, so busbw = algbw = {want[1]:.6g}"
            if collective == "broadcast"
            else f" moves nothing over a link: busbw = algbw * {FORMULA[collective]} = 0"
        )
        wrong_alg = "" if close(got[0], want[0]) else f" (and algbw {got[0]!r}, not {want[0]:.6g})"
        raise CheckFailed(
            kept_hint(bandwidths, earlier, ONE, collective, got)
            or f"{collective} on 1 rank{why}, got {got[1]!r}{wrong_alg}"
        )


def _environment(bandwidths) -> None:
    case = (2**20, 1e-3, GIVEN)
    names = ("WORLD_SIZE", "LOCAL_WORLD_SIZE")
    with mock.patch.dict(os.environ, dict.fromkeys(names, str(ENVIRONMENT))):
        got = call(bandwidths, case, "all_reduce")
    if all(map(close, got, reference(*case, "all_reduce"))):
        return
    read = close(got[1], reference(*case[:2], ENVIRONMENT, "all_reduce")[1])
    raise CheckFailed(
        f"bandwidths{(*case, 'all_reduce')} returned ({got[0]:.6g}, {got[1]:.6g}) in a process "
        f"whose environment has WORLD_SIZE={ENVIRONMENT}"
        + (f", the busbw of {ENVIRONMENT} ranks" if read else "")
        + f": the numbers are of the run measured, on the world_size given ({GIVEN}), not of "
        "this process. Read the world size from the argument, not from os.environ"
    )


def check_edges(bandwidths, earlier, passed: list[str]) -> None:
    """One rank for each collective, then a misleading environment; ``earlier`` as
    :func:`kept_hint` takes it."""
    _one_rank(bandwidths, earlier)
    passed.append(
        "1 rank: busbw 0 for all_reduce, all_gather and reduce_scatter, algbw for broadcast"
    )
    _environment(bandwidths)
    passed.append("the world size given, not WORLD_SIZE in the environment")


def check_bus_bandwidth(answer, passed: list[str]) -> None:
    """``10.bus_bandwidth``: algbw and busbw in GB/s for four collectives."""
    bandwidths = answer
    if not callable(bandwidths):
        raise CheckFailed(f"the answer must be the function bandwidths, got {bandwidths!r}")
    earlier: list = []  # (case, collective, pair) of the calls checked before
    for collective in FACTORS:
        results = [(case, call(bandwidths, case, collective)) for case in CASES]
        for case, got in results:
            if not all(close(g, e) for g, e in zip(got, reference(*case, collective), strict=True)):
                hint = kept_hint(bandwidths, earlier, case, collective, got)
                raise CheckFailed(
                    hint
                    or fixed_for_two_ranks(bandwidths)
                    or bandwidth_mistake(results, collective)
                )
            earlier.append((case, collective, got))
        passed.append(f"{collective}: algbw and busbw in GB/s for {len(CASES)} cases, 2-16 ranks")
    check_edges(bandwidths, earlier, passed)
    hint = unknown_collective_hint(bandwidths)
    if hint:
        raise CheckFailed(hint)
    passed.append("an unknown collective raises ValueError")
