"""``10.bus_bandwidth``'s checker, :func:`check_bus_bandwidth`, and its edges: one rank,
where each collective's factor at n = 1 holds (0 for the three that move data between
ranks, 1 for a broadcast), and a process whose environment names another world size
(``WORLD_SIZE``, as torchrun sets it), which the answer's numbers must not read: they are of
the run whose ``world_size`` it was given; and the other strings than the four names, each of
which must raise ValueError (:func:`unknown_collective_hint`)."""

from __future__ import annotations

from ._ch10_bandwidth import (
    CASES,
    FACTORS,
    FRESH_N,
    bandwidth_mistake,
    call,
    close,
    fixed_for_two_ranks,
    kept_hint,
    reference,
)
from ._kit import patched
from ._kit_environ import case_environ
from ._util import CheckFailed

__all__ = ["check_bus_bandwidth", "check_edges", "unknown_collective_hint"]

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
    """In a process whose environment, then whose process group, has another world size."""
    case = (2**20, 1e-3, GIVEN)
    names = ("WORLD_SIZE", "LOCAL_WORLD_SIZE")
    with case_environ(dict.fromkeys(names, str(ENVIRONMENT)), "bandwidths"):
        got = call(bandwidths, case, "all_reduce")
    _given_world(got, case, f"whose environment has WORLD_SIZE={ENVIRONMENT}", "os.environ")
    with _pretend_group(ENVIRONMENT):
        got = call(bandwidths, case, "all_reduce")
    where = f"that is a rank of a group of {ENVIRONMENT} (dist.get_world_size() = {ENVIRONMENT})"
    _given_world(got, case, where, "dist.get_world_size()")


def _given_world(got, case: tuple[int, float, int], where: str, source: str) -> None:
    if all(map(close, got, reference(*case, "all_reduce"))):
        return
    read = close(got[1], reference(*case[:2], ENVIRONMENT, "all_reduce")[1])
    raise CheckFailed(
        f"bandwidths{(*case, 'all_reduce')} returned ({got[0]:.6g}, {got[1]:.6g}) in a process "
        + where
        + (f", the busbw of {ENVIRONMENT} ranks" if read else "")
        + f": the numbers are of the run measured, on the world_size given ({GIVEN}), not of "
        f"this process. Read the world size from the argument, not from {source}"
    )


def _pretend_group(n: int):
    """torch.distributed as a process of a group of ``n`` ranks reports it, rank 0."""
    import torch.distributed as dist

    return patched(
        (dist, "is_initialized", lambda: True),
        (dist, "get_world_size", lambda group=None: n),
        (dist, "get_rank", lambda group=None: 0),
    )


def _no_device(bandwidths) -> None:
    """With a GPU to be seen (``torch.cuda.is_available()`` True), no wait for it, nor CUDA
    started: the numbers are arithmetic on the arguments."""
    import torch

    touched: list[str] = []

    def noted(what):
        def note(*args, **kwargs):
            touched.append(what)
            raise _Touched

        return note

    with patched(
        (torch.cuda, "is_available", lambda: True),
        (torch.cuda, "synchronize", noted("torch.cuda.synchronize()")),
        (torch.cuda, "_lazy_init", noted("a CUDA call (it starts CUDA on the GPU)")),
    ):
        try:
            bandwidths(2**20, 1e-3, GIVEN, "all_reduce")
        except _Touched:
            pass
        except Exception:  # noqa: BLE001 (what a GPU's absence raised: only what was seen counts)
            pass
    if touched:
        raise CheckFailed(
            f"with a GPU present (torch.cuda.is_available() True), bandwidths made "
            f"{touched[0]}: the seconds are given, measured by the caller, and the two numbers "
            "are arithmetic on the four arguments. A wait for the GPU costs its queued work, "
            "and the first CUDA call starts CUDA there (its memory and start-up time): touch "
            "no device"
        )


class _Touched(BaseException):
    """Raised by a CUDA call in :func:`_no_device`, to stop the answer there."""


_EXACTLY = (
    "the collective is one of 'all_reduce', 'all_gather', 'reduce_scatter' and 'broadcast', "
    "spelled exactly so: any other string, "
)
UNKNOWN = (  # (collective, world_size, why it is unknown): each another string than the four
    ("all_to_everyone", 2, ""),
    (
        "all_to_everyone",
        1,
        "on 1 rank too an unknown collective must raise ValueError: check the name before any "
        "shortcut for world_size 1",
    ),
    ("All_Reduce", 2, _EXACTLY + "in another case ('All_Reduce', 'BROADCAST') too, must raise it"),
    ("BROADCAST", 4, _EXACTLY + "in another case ('All_Reduce', 'BROADCAST') too, must raise it"),
    *(
        (alias, n, _EXACTLY + "an alias ('allreduce', 'all-gather', 'bcast') too, must raise it")
        for alias, n in (("allreduce", 2), ("all-gather", 4), ("reducescatter", 3), ("bcast", 2))
    ),
    *(
        (
            part,
            2,
            _EXACTLY + "a part of one of them too ('cast', 'reduce', ''), must raise it. (`c in "
            "('broadcast')` tests for a substring: ('broadcast') is a string, ('broadcast',) a "
            "tuple)",
        )
        for part in ("cast", "reduce", "")
    ),
)


def unknown_collective_hint(bandwidths) -> str | None:
    """The hint when a collective that is none of the four names does not raise ValueError."""
    for collective, n, why in UNKNOWN:
        call_ = f"bandwidths(..., {collective!r})" if n == 2 and not why else None
        call_ = call_ or f"bandwidths(2**20, 1e-3, {n}, {collective!r})"
        try:
            bandwidths(2**20, 1e-3, n, collective)
        except ValueError:
            continue
        except Exception as error:  # noqa: BLE001 (a refusal of another kind, named)
            return (
                f"{call_} raised {type(error).__name__} ({error}): an unknown collective must "
                "raise ValueError naming the allowed ones"
            )
        if _raises_after_another_call(bandwidths, n, collective):
            return (
                f"{call_} returned instead of raising ValueError, and raised it when called "
                f"again after a call on {FRESH_N} ranks: whether your function checks the name "
                "depends on earlier calls (a value kept from the call before, reused without "
                "checking the name). Check the collective's name at every call, before anything "
                "kept is reused"
            )
        return f"{call_} returned instead of raising ValueError: " + (
            why or "an unknown collective must raise ValueError naming the allowed ones"
        )
    return None


def _raises_after_another_call(bandwidths, n: int, collective: str) -> bool:
    """Whether ``bandwidths(2**20, 1e-3, n, collective)``, which returned, raises ValueError
    once a right call on a world size no case has came between: it depends on earlier calls."""
    try:
        bandwidths(2**20, 1e-3, FRESH_N, "all_reduce")
    except Exception:  # noqa: BLE001 (the answer's error: the usual hint then)
        return False
    try:
        bandwidths(2**20, 1e-3, n, collective)
    except ValueError:
        return True
    except Exception:  # noqa: BLE001 (another refusal: the usual hint)
        return False
    return False


def check_edges(bandwidths, earlier, passed: list[str]) -> None:
    """One rank for each collective, then a misleading environment; ``earlier`` as
    :func:`kept_hint` takes it."""
    _one_rank(bandwidths, earlier)
    passed.append(
        "1 rank: busbw 0 for all_reduce, all_gather and reduce_scatter, algbw for broadcast"
    )
    _environment(bandwidths)
    passed.append("the world size given, not WORLD_SIZE in the environment")
    _no_device(bandwidths)


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
