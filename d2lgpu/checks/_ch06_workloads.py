"""``06.slowest_op``'s workloads: functions whose slowest operator the checker knows.

Each is ``(fn, args, the operator wanted, what it is, {wrong answer: its hint})``:
a large product next to 20 tiny additions (the most calls, little time), an exp of
millions of numbers next to a small product, and an operator called 80 times whose
calls add up to more than one long product (ranking by time per call picks the
product). Sized for the CPU by default; :func:`workloads` takes a GPU's sizes too.

What it is not: the checker; :mod:`d2lgpu.checks.ch06_performance` runs them.
"""

from __future__ import annotations

import torch

__all__ = ["MANY_CALLS", "many_calls_workload", "workloads"]


def workloads(device=None, n: int = 512, exp_numel: int = 2_000_000):
    """Two workloads with the operator that takes their time: sized for the CPU by default,
    and (4096, 64 million) for a real GPU, where kernels must be long to stand out.

    Each is ``(fn, args, the operator wanted, what it is, {wrong answer: its hint})``."""
    device = torch.device(device or "cpu")
    gen = torch.Generator(device=device).manual_seed(6)
    a = torch.randn(n, n, device=device, generator=gen)
    x = torch.zeros(8, device=device)

    def product_and_adds(a, x):
        y = a @ a  # one large product: aten::matmul calls aten::mm, which does the work
        for _ in range(20):
            x = x + 1  # many tiny additions: the most calls, little time
        return y, x

    big = torch.randn(exp_numel, device=device, generator=gen)
    small = torch.randn(32, 32, device=device, generator=gen)

    def exp_and_small_product(big, small):
        return torch.exp(big), small @ small

    millions = f"{exp_numel / 1e6:g} million"
    return [
        (
            product_and_adds,
            (a, x),
            "aten::mm",
            f"a {n} x {n} product next to 20 tiny additions",
            {},
        ),
        (
            exp_and_small_product,
            (big, small),
            "aten::exp",
            f"exp of {millions} numbers next to a 32 x 32 product",
            {},
        ),
    ]


# Where the slowest operator is called many times: its total, not one call, is what counts.
MANY_CALLS, MANY_NUMEL, ONE_PRODUCT_N = 80, 250_000, 512


def many_calls_workload():
    """An operator called 80 times whose calls add up to more than one long product:
    ranking by time per call picks the product (each of its calls is ~25x longer on a CPU)."""
    gen = torch.Generator().manual_seed(7)
    a = torch.randn(ONE_PRODUCT_N, ONE_PRODUCT_N, generator=gen)
    v = torch.randn(MANY_NUMEL, generator=gen)

    def one_product_many_exps(a, v):
        y = a @ a
        for _ in range(MANY_CALLS):
            z = torch.exp(v)
        return y, z

    what = (
        f"one {ONE_PRODUCT_N} x {ONE_PRODUCT_N} product next to {MANY_CALLS} exps of "
        f"{MANY_NUMEL:,} numbers"
    )
    per_call = (
        f"you returned aten::mm, the operator whose single call is the longest; aten::exp, "
        f"called {MANY_CALLS} times, takes more time in all. Rank by the total self time over "
        "all calls (self_cpu_time_total), not by the time per call"
    )
    return one_product_many_exps, (a, v), "aten::exp", what, {"aten::mm": per_call}
