"""The rules of ``10.bus_bandwidth``: nccl-tests' formulas, and the hints that name a
wrong answer's mistake by the variant of those formulas that explains all its values, or by
the earlier call whose answer it gave back (:func:`kept_hint`); and :func:`call`, which passes the
name built at run time and names an allocation. The checker itself, and the other strings than
the four names, are :mod:`._ch10_bandwidth_edges`'s."""

from __future__ import annotations

import functools
import math

from ._kit_calls import allocations
from ._util import CheckFailed

__all__ = [
    "CASES",
    "FACTORS",
    "bandwidth_mistake",
    "call",
    "close",
    "fixed_for_two_ranks",
    "kept_hint",
    "FRESH_N",
]

GB = 1e9
FACTORS = {
    "all_reduce": lambda n: 2 * (n - 1) / n,
    "all_gather": lambda n: (n - 1) / n,
    "reduce_scatter": lambda n: (n - 1) / n,
    "broadcast": lambda n: 1.0,
}
CASES = [  # (nbytes, seconds, world_size), all_reduce first: the chapter's formula
    (2**20, 1e-3, 2), (16 * 2**20, 0.0154, 2), (4096, 7.3e-4, 4), (3 * 10**9, 1.7, 8),
    (12345, 2.5e-5, 3), (2**30, 0.0031, 16), (1, 1.0, 2), (7 * 2**20, 0.02, 5),
]  # fmt: skip


def reference(nbytes, seconds, n, collective):
    """nccl-tests' (algbw, busbw) in GB/s."""
    alg = nbytes / seconds / GB
    return alg, alg * FACTORS[collective](n)


def close(a, b):
    """Equal to 6 digits: float32's arithmetic (7 digits) is close enough for a bandwidth."""
    return math.isclose(a, b, rel_tol=1e-6, abs_tol=1e-12)


def _explains(variant, results) -> bool:
    """Whether ``variant(case) -> value`` gives every value in ``results`` [(case, value)]."""
    return all(close(value, variant(*case)) for case, value in results)


def bandwidth_mistake(results, collective) -> str:
    """The hint for wrong answers [(case, (algbw, busbw))]: a mistake that explains them all."""
    alg = [(case, got[0]) for case, got in results]
    bus = [(case, got[1]) for case, got in results]
    ref = functools.partial(reference, collective=collective)
    if _explains(lambda *c: ref(*c)[1], alg) and _explains(lambda *c: ref(*c)[0], bus):
        return "the two values are swapped: return (algbw, busbw), in that order"
    if _explains(lambda b, s, n: ref(b, s, n)[0] * n, alg):
        return (
            f"{collective}: algbw is world_size times too large: nbytes is already the whole "
            "buffer, as nccl-tests counts it (for all_gather and reduce_scatter every rank's "
            "share together; for all_reduce and broadcast the buffer each rank holds); do not "
            "multiply it by world_size"
        )
    if collective != "all_reduce" and _explains(lambda b, s, n: ref(b, s, n)[0] / n, alg):
        return (
            f"{collective}: algbw is world_size times too small: nbytes is already the whole "
            "buffer (the input of reduce_scatter, the output of all_gather), as nccl-tests "
            "counts it, not one rank's share; do not divide it by world_size"
        )
    for places in range(7):
        if _explains(lambda b, s, n, p=places: round(ref(b, s, n)[0], p), alg) and not _explains(
            lambda b, s, n: ref(b, s, n)[0], alg
        ):
            return (
                f"algbw is rounded to {places} decimal place(s): a small bandwidth loses its "
                "digits (or becomes 0). Return the values unrounded, and round only where you "
                "print them"
            )
    for scale, what in ((lambda n: GB / 2**30, "is in GiB/s (2**30)"),
                        (lambda n: 1e3, "is in MB/s"), (lambda n: 1e9, "is in bytes/s"),
                        (lambda n: 8.0, "is in Gbit/s"),
                        (lambda n: 1 / n, "is per rank (divided by world_size)")):  # fmt: skip
        if _explains(lambda b, s, n, scale=scale: ref(b, s, n)[0] * scale(n), alg):
            return f"algbw {what}: use GB/s, nbytes / seconds / 1e9, for the whole buffer"
    if _explains(lambda b, s, n: s / b * GB, alg):
        return "algbw is inverted: bandwidth is bytes divided by seconds"
    for (b, s, n), got in alg:
        if not close(got, ref(b, s, n)[0]):
            return f"algbw for {b} bytes in {s} s should be {ref(b, s, n)[0]:.6g} GB/s, got {got!r}"
    if _explains(lambda b, s, n: ref(b, s, n)[0] / (FACTORS[collective](n) or 1.0), bus):
        return (
            f"busbw of {collective}: you divided algbw by the factor; busbw = algbw x factor "
            "(2 (n - 1) / n for all_reduce, (n - 1) / n for all_gather and reduce_scatter, "
            "1 for broadcast)"
        )
    for factor, what in _FACTOR_MISTAKES:
        if _explains(lambda b, s, n, f=factor: ref(b, s, n)[0] * f(n), bus):
            return (
                f"busbw of {collective}: you used {what}; nccl-tests' factors are "
                "2 (n - 1) / n for all_reduce, (n - 1) / n for all_gather and reduce_scatter, "
                "1 for broadcast"
            )
    (b, s, n), got = next((c, g) for c, g in bus if not close(g, ref(*c)[1]))
    return (
        f"busbw of {collective} for {b} bytes, {s} s, {n} ranks should be "
        f"{ref(b, s, n)[1]:.6g} GB/s (algbw x {FACTORS[collective](n):.6g}), got {got!r}"
    )


def fixed_for_two_ranks(bandwidths) -> str | None:
    """The hint when every collective's factor is its value for 2 ranks at every n (a
    factor written in), told apart from an integer division by the values at several n."""
    ns = (2, 3, 4, 8)
    for collective, factor in FACTORS.items():
        try:
            got = [call(bandwidths, (10**9, 1.0, n), collective) for n in ns]
        except Exception:  # noqa: BLE001 (the answer's error: the usual hints then)
            return None
        if not all(alg and close(bus / alg, factor(2)) for alg, bus in got):
            return None
    at = ", ".join(str(n) for n in ns[:-1]) + f" and {ns[-1]}"  # the world sizes looked at
    return (
        "busbw's factors do not depend on n: each collective's factor is its value for 2 "
        f"ranks (all_reduce 1, all_gather and reduce_scatter 0.5, broadcast 1) at {at} "
        "ranks alike. Written in for 2 ranks, or worked out at the first call and kept? "
        "nccl-tests' factors depend on n: 2 (n - 1) / n "
        "for all_reduce (1.5 for 4 ranks), (n - 1) / n for all_gather and reduce_scatter, 1 "
        "for broadcast"
    )


_FACTOR_MISTAKES = (
    (
        lambda n: 1.0,
        "busbw = algbw, no factor (2 * (n - 1) // n, an integer division, is 1 too: use /; "
        "and so is a factor worked out at the first call, all_reduce on 2 ranks, and kept)",
    ),
    (lambda n: (n - 1) // n, "(n - 1) // n, an integer division, which is 0: use /"),
    (lambda n: 2 * (n - 1) / n, "the all-reduce factor 2 (n - 1) / n"),
    (lambda n: (n - 1) / n, "(n - 1) / n, the all-gather factor"),
    (lambda n: n / (n - 1), "n / (n - 1): the factor upside down"),
    (lambda n: 2 * n / (n - 1), "2 n / (n - 1): the factor upside down"),
    (lambda n: 2.0, "a factor of 2 without (n - 1) / n"),
)


ALLOCATED = 2**20  # bytes: a formula allocates nothing near this


def call(fn, case, collective):
    """``fn(*case, collective)``'s pair as floats. The name is passed as a string built at
    run time, as a benchmark's loop or a file gives it, not the literal the checker holds;
    an allocation of ``ALLOCATED`` bytes or more is named."""
    with allocations(ALLOCATED) as found:
        try:
            got = fn(*case, "".join(list(collective)))
        except ValueError as error:
            if collective not in FACTORS or not _takes_the_literal(fn, case, collective):
                raise
            raise CheckFailed(
                f"bandwidths{(*case, collective)} raised ValueError ({error}) for {collective!r} "
                "built at run time (joined, read from a file), and returned for the literal "
                f"'{collective}': a name compared with `is` is the same object only by chance "
                "(a literal is interned). Compare names with ==, or look them up in a dict"
            ) from None
    if found:
        what, size = max(found, key=lambda f: f[1])
        # Python's traced peak holds a few bytes of the interpreter's own, which vary by run
        amount = f"about {size / 2**20:.1f} MiB" if what == "python" else f"{size:,} bytes"
        what = "Python objects: a bytearray, bytes, a list" if what == "python" else what
        raise CheckFailed(
            f"bandwidths{(*case, collective)} allocated {amount} ({what}): the two numbers "
            "need only nbytes, seconds and world_size, and a buffer of nbytes costs memory and "
            "time that grow with it (3 GB for a 3 GB all-reduce). Compute algbw = nbytes / "
            "seconds / 1e9 from the argument, allocating nothing"
        )
    if not isinstance(got, tuple | list) or len(got) != 2:
        raise CheckFailed(
            f"bandwidths{(*case, collective)} returned {got!r}: return a pair (algbw, busbw)"
        )
    try:
        return float(got[0]), float(got[1])
    except (TypeError, ValueError):
        raise CheckFailed(f"bandwidths returned {got!r}: both values must be numbers") from None


def _takes_the_literal(fn, case, collective) -> bool:
    try:
        fn(*case, collective)
    except Exception:  # noqa: BLE001 (the answer's error: its ValueError stands)
        return False
    return True


FRESH_N = 11  # a world size no case has


def _kept_from(case, collective, got, alg_right, earlier_call) -> list[str]:
    """What of ``got`` an earlier call ``(case, collective, pair)`` returned too, each a
    cause to probe: its pair (the same nbytes and seconds), its factor (the same world size,
    another collective: the same pair can be either), or its algbw (other nbytes or seconds).
    ``alg_right``: whether got's algbw is right for ``case``."""
    (b, s, n), before, pair = earlier_call
    if (b, s, n, before) == (*case, collective):
        return []
    found = []
    if (b, s) == case[:2] and all(close(g, p) for g, p in zip(got, pair, strict=True)):
        found.append("the pair")
    if n == case[2] and before != collective and alg_right and got[0] and pair[0]:
        if close(got[1] / got[0], pair[1] / pair[0]):
            found.append("the factor (busbw / algbw)")
    if (b, s) != case[:2] and close(got[0], pair[0]) and not alg_right:
        found.append("the algbw")
    return found


def _factor_kept_again(bandwidths, case, collective, before) -> tuple | None:
    """The probe ``(b, s, n)`` on a world size no case used where ``before`` then
    ``collective`` repeat the mistake (``before``'s right factor given to ``collective``),
    ``collective`` alone being right on another: a factor kept between calls does; a rule
    of the formula's own (a shortcut for one rank, a wrong factor) does not. Else None."""
    probe, alone = (case[0] + 1, case[1], FRESH_N), (case[0] + 2, case[1], FRESH_N + 2)
    try:  # first, collective alone on a world size of its own: right, where kept
        calls = [call(bandwidths, *c) for c in ((alone, collective), (probe, before))]
        first, second = calls[1], call(bandwidths, probe, collective)
    except Exception:  # noqa: BLE001 (the answer's error: the usual hints then)
        return None
    right = all(map(close, calls[0], reference(*alone, collective)))
    if not right or not all(map(close, first, reference(*probe, before))) or not second[0]:
        return None
    wrong = not all(map(close, second, reference(*probe, collective)))
    return probe if wrong and close(second[1] / second[0], first[1] / first[0]) else None


def kept_hint(bandwidths, earlier, case, collective, got) -> str | None:
    """The hint when a wrong pair ``got`` holds what an ``earlier`` call [(case, collective,
    pair)] returned (:func:`_kept_from`), and the probe shows it kept: the same call with
    arguments no call had used is right, or (a factor) the two calls repeat the mistake on a
    world size no case used (:func:`_factor_kept_again`). A wrong formula is wrong there too."""
    probes: dict = {}
    alg_right = close(got[0], reference(case[0], case[1], case[2], collective)[0])
    for earlier_call, what in (
        (e, w) for e in earlier for w in _kept_from(case, collective, got, alg_right, e)
    ):
        (b, s, n), before, _ = earlier_call
        said = f"bandwidths{(*case, collective)} returned ({got[0]:.6g}, {got[1]:.6g}): {what} "
        said += f"it returned earlier for bandwidths{(b, s, n, before)}; "
        if what.startswith("the factor"):
            probe = _factor_kept_again(bandwidths, case, collective, before)
            if probe is None:
                continue
            said += (
                f"on {probe[2]} ranks, which no case used, bandwidths{(*probe, before)} then "
                f"bandwidths{(*probe, collective)} do the same"
            )
        else:
            fresh = (case[0] + 1, case[1], case[2] if what == "the pair" else FRESH_N)
            if fresh not in probes:  # no case has these nbytes, nor this world size
                try:
                    got_fresh = call(bandwidths, fresh, collective)
                except Exception:  # noqa: BLE001 (the answer's error: the usual hints then)
                    return None
                probes[fresh] = all(map(close, got_fresh, reference(*fresh, collective)))
            if not probes[fresh]:
                continue
            said += f"called with arguments no call had used, bandwidths{(*fresh, collective)}, "
            said += "it is right"
        return (
            said + ". An answer kept from an earlier call (a cache, a dict, a value kept between "
            "calls) keyed on less than all four arguments: busbw depends on all four, so compute "
            "each call's values from them all, or key a cache on all four"
        )
    return None
