"""Checker of chapter 6: ``06.slowest_op``, reading a profile.

The answer is ``slowest_op(fn, args, device) -> str``: the name of the operator
with the largest *self* time in one profiled call of ``fn(*args)``, made after
a warm-up call. The checker runs it on the CPU (profiles of small CPU work are
repeatable; on a GPU the same question reads the device columns) with two
workloads whose slowest operator it knows, and its ``fn`` records whether the
profiler was running during each call (``torch.autograd._profiler_enabled``).

It sets ``KINETO_LOG_LEVEL`` (if unset) so that the profiler's C++ library
does not log to stderr.
"""

from __future__ import annotations

import os

import torch

from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_slowest_op"]


def _workloads():
    gen = torch.Generator().manual_seed(6)
    a = torch.randn(512, 512, generator=gen)
    x = torch.zeros(8)

    def product_and_adds(a, x):
        y = a @ a  # one large product: aten::matmul calls aten::mm, which does the work
        for _ in range(20):
            x = x + 1  # many tiny additions: the most calls, little time
        return y, x

    big, small = torch.randn(2_000_000, generator=gen), torch.randn(32, 32, generator=gen)

    def exp_and_small_product(big, small):
        return torch.exp(big), small @ small

    return [
        (product_and_adds, (a, x), "aten::mm", "a 512 x 512 product next to 20 tiny additions"),
        (
            exp_and_small_product,
            (big, small),
            "aten::exp",
            "exp of 2 million numbers next to a 32 x 32 product",
        ),
    ]


def _recording(fn, calls):
    def recorded(*args):
        calls.append(torch.autograd._profiler_enabled())
        return fn(*args)

    return recorded


@one_cpu_thread
def check_slowest_op(answer, passed):
    """``slowest_op(fn, args, device)`` on two CPU workloads with a known slowest operator."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('06.slowest_op', slowest_op)")
    os.environ.setdefault("KINETO_LOG_LEVEL", "6")  # read when the profiler first starts
    cpu = torch.device("cpu")
    for n, (fn, args, want, what) in enumerate(_workloads()):
        calls: list[bool] = []
        got = answer(_recording(fn, calls), args, cpu)
        if not isinstance(got, str):
            raise CheckFailed(
                f"slowest_op returned a {type(got).__name__}: return the operator's name, "
                "e.g. the .key of an entry of prof.key_averages()"
            )
        if not any(calls):
            raise CheckFailed(
                "fn ran, but never while the profiler was recording: call it inside "
                "`with torch.profiler.profile(activities=[...]) as prof:`"
            )
        if calls[0]:
            raise CheckFailed(
                "the first call of fn was already profiled: call fn(*args) once before "
                "profiling (a warm-up), so that one-off costs do not pollute the profile"
            )
        if n == 0:
            passed.append("fn is called once to warm up, then profiled")
        if got != want:
            # One retry: a machine busy with other programs can stall any operator once.
            calls.clear()
            got = answer(_recording(fn, calls), args, cpu)
        if got != want:
            if got == "aten::matmul":
                raise CheckFailed(
                    "you returned aten::matmul, whose *total* time includes aten::mm, the "
                    "operator it calls: sort by self time (self_cpu_time_total, or "
                    "self_device_time_total for a GPU) to find where the work is done"
                )
            if got == "aten::add":
                raise CheckFailed(
                    "you returned aten::add, the operator called most often (count), not the "
                    "one that takes the most time: compare self_cpu_time_total"
                )
            raise CheckFailed(
                f"for {what}, the operator with the most self time is {want}; you returned "
                f"{got!r}: take the .key of the entry of prof.key_averages() with the largest "
                "self time"
            )
        passed.append(f"{what}: {want}")
