"""The bench's measurements, one function each; :mod:`d2lgpu.bench` runs them and saves results.

Each function measures one thing a chapter discusses, with the course's own
:func:`d2lgpu.timing.benchmark` (synchronized, warmed up), and returns a
JSON-friendly dict (or a list of them). Each time comes with the spread of
its repeats (``iqr_seconds``, and ``min_seconds`` / ``max_seconds`` for the
matrix-product curves), so the report can tell a measurement from noise:

* :func:`matmul_curve`: matrix-product time and achieved TFLOP/s against size,
  per dtype (fp32 at highest precision, tf32, bf16, fp16; :func:`matmul_precision`);
* :func:`copy_bandwidth` and :func:`host_to_device_bandwidth` (pageable and pinned);
* :func:`launch_overhead`: tiny kernels launched one by one, and as one CUDA graph;
* :func:`frobenius_item_cost`: the cost of a per-step ``.item()``;
* :func:`amp_step`: one training step of chapter 4's model per precision;
* :func:`do_bench_comparison`: the course timer against ``triton.testing.do_bench``.
"""

from __future__ import annotations

from contextlib import contextmanager

import torch
from torch import nn

from .memory import peak_memory
from .models import linear_stack
from .timing import benchmark

__all__ = [
    "DTYPES",
    "amp_step",
    "copy_bandwidth",
    "do_bench_comparison",
    "frobenius_item_cost",
    "host_to_device_bandwidth",
    "launch_overhead",
    "matmul_curve",
    "matmul_precision",
]

DTYPES = {
    "fp32": torch.float32,  # matmul precision "highest": true fp32
    "tf32": torch.float32,  # the same tensors, TF32 tensor cores allowed
    "bf16": torch.bfloat16,
    "fp16": torch.float16,
}


@contextmanager
def matmul_precision(mode: str):
    """Set ``torch.set_float32_matmul_precision`` for a block, then restore it."""
    before = torch.get_float32_matmul_precision()
    torch.set_float32_matmul_precision(mode)
    try:
        yield
    finally:
        torch.set_float32_matmul_precision(before)


def _spread(result) -> dict:
    """The spread of a :class:`~d2lgpu.timing.BenchmarkResult`'s repeats, in seconds."""
    return {
        "iqr_seconds": result.iqr,
        "min_seconds": result.min,
        "max_seconds": max(result.samples),
    }


def matmul_curve(device, dtype_name: str, sizes, *, repeat: int = 5) -> list[dict]:
    """Time an n x n x n product for each size; return time, TFLOP/s and spread per size."""
    device = torch.device(device)
    dtype = DTYPES[dtype_name]
    mode = "high" if dtype_name == "tf32" else "highest"
    points = []
    with matmul_precision(mode):
        for n in sizes:
            gen = torch.Generator().manual_seed(n)
            a = torch.randn(n, n, generator=gen).to(device, dtype)
            b = torch.randn(n, n, generator=gen).to(device, dtype)
            result = benchmark(torch.mm, a, b, device=device, repeat=repeat, label=f"{n}")
            flops = 2 * n**3
            points.append(
                {"n": n, "seconds": result.median, "tflops": flops / result.median / 1e12}
                | _spread(result)
            )
    return points


def copy_bandwidth(device, mib: int) -> dict:
    """Device-to-device copy bandwidth: bytes read plus bytes written per second."""
    device = torch.device(device)
    n = mib * 2**20 // 4
    src = torch.ones(n, device=device)
    dst = torch.empty_like(src)
    result = benchmark(dst.copy_, src, device=device, repeat=5)
    return {
        "mib": mib,
        "seconds": result.median,
        "iqr_seconds": result.iqr,
        "gb_per_s": 2 * n * 4 / result.median / 1e9,
    }


def host_to_device_bandwidth(device, mib: int) -> dict:
    """Host-to-device copy bandwidth from pageable and from pinned host memory (CUDA only)."""
    n = mib * 2**20 // 4
    pageable = torch.ones(n)
    pinned = torch.ones(n).pin_memory()
    dst = torch.empty(n, device=device)
    out: dict[str, float] = {"mib": mib}
    for name, src in (("pageable", pageable), ("pinned", pinned)):
        result = benchmark(dst.copy_, src, device=device, repeat=5)
        out[f"{name}_gb_per_s"] = n * 4 / result.median / 1e9
    return out


def launch_overhead(device, kernels: int = 200) -> dict:
    """Seconds per tiny kernel launched one by one, and per kernel replayed in a CUDA graph."""
    device = torch.device(device)
    x = torch.zeros(16, device=device)

    def many_tiny_kernels():
        for _ in range(kernels):
            x.add_(1)

    eager = benchmark(many_tiny_kernels, device=device, repeat=5)
    out = {
        "kernels": kernels,
        "eager_us_per_kernel": eager.median / kernels * 1e6,
        "eager_iqr_us_per_kernel": eager.iqr / kernels * 1e6,
    }
    if device.type == "cuda":
        graph = torch.cuda.CUDAGraph()
        stream = torch.cuda.Stream(device)
        stream.wait_stream(torch.cuda.current_stream(device))
        with torch.cuda.stream(stream):  # capture must not happen on the default stream
            many_tiny_kernels()  # warm-up on the side stream
            with torch.cuda.graph(graph, stream=stream):
                many_tiny_kernels()
        torch.cuda.current_stream(device).wait_stream(stream)
        replay = benchmark(graph.replay, device=device, repeat=5)
        out["graph_us_per_kernel"] = replay.median / kernels * 1e6
    return out


def frobenius_item_cost(device, steps: int = 1000, n: int = 100) -> dict:
    """Seconds for ``steps`` normalized 100x100 products logging the Frobenius norm.

    ``per_step`` reads each norm to the host with ``.item()`` (a sync per
    step); ``at_end`` keeps the log on the device and transfers it once.
    """
    device = torch.device(device)
    gen = torch.Generator().manual_seed(0)
    a0 = (torch.randn(n, n, generator=gen) / n**0.5).to(device)

    def per_step():
        a, log = a0, []
        for _ in range(steps):
            a = a @ a0
            norm = torch.linalg.matrix_norm(a)
            a = a / norm  # keep the numbers finite (A @ A overflows by step 4)
            log.append(norm.item())  # a CPU-GPU sync point, every step
        return log

    def at_end():
        a, log = a0, torch.empty(steps, device=device)
        for i in range(steps):
            a = a @ a0
            norm = torch.linalg.matrix_norm(a)
            a = a / norm
            log[i] = norm  # stays on the device: no sync
        return log.tolist()  # one transfer, one sync, at the end

    torch.testing.assert_close(torch.tensor(per_step()), torch.tensor(at_end()))
    slow = benchmark(per_step, device=device, warmup=1, repeat=3)
    fast = benchmark(at_end, device=device, warmup=1, repeat=3)
    return {
        "steps": steps,
        "per_step_seconds": slow.median,
        "at_end_seconds": fast.median,
        "per_step_iqr_seconds": slow.iqr,
        "at_end_iqr_seconds": fast.iqr,
        "slowdown": slow.median / fast.median,
    }


def amp_step(device, width: int, batch: int, precision: str) -> dict:
    """Time and peak memory of one training step in fp32, tf32, bf16 or fp16."""
    device = torch.device(device)
    torch.manual_seed(0)
    net = linear_stack(width).to(device)
    opt = torch.optim.SGD(net.parameters(), lr=1e-3)
    x = torch.randn(batch, width, device=device)
    y = torch.randn(batch, width, device=device)
    low = {"bf16": torch.bfloat16, "fp16": torch.float16}.get(precision)
    scaler = torch.amp.GradScaler(device.type, enabled=precision == "fp16")

    def step():
        opt.zero_grad(set_to_none=True)
        with torch.autocast(device.type, dtype=low or torch.float32, enabled=low is not None):
            loss = nn.functional.mse_loss(net(x), y)
        scaler.scale(loss).backward()
        scaler.step(opt)
        scaler.update()

    with matmul_precision("high" if precision == "tf32" else "highest"):
        result = benchmark(step, device=device, warmup=3, repeat=5)
        with peak_memory(device) as mem:
            step()
    return {
        "precision": precision,
        "seconds": result.median,
        "iqr_seconds": result.iqr,
        "peak_bytes": mem.peak,
    }


def do_bench_comparison(device, sizes) -> list[dict]:
    """Compare :func:`benchmark` with ``triton.testing.do_bench`` on bf16 products (CUDA only).

    ``do_bench`` empties the L2 cache before each call, so every product reads
    its operands from memory. To time the same thing, our side cycles through
    enough pairs of operands that together exceed the L2 cache four times:
    each call then finds its operands evicted by the calls before it. With one
    pair, small products would run from the cache and look faster.
    """
    import itertools
    from functools import partial

    device = torch.device(device)
    if device.type != "cuda":
        raise ValueError(f"device must be a CUDA device (do_bench times CUDA), got {device}")
    from triton.testing import do_bench

    l2_bytes = getattr(torch.cuda.get_device_properties(device), "L2_cache_size", 0) or 50 * 2**20
    rows = []
    for n in sizes:
        pair_bytes = 2 * n * n * 2  # two bf16 operands
        pairs = [
            (
                torch.randn(n, n, device=device, dtype=torch.bfloat16),
                torch.randn(n, n, device=device, dtype=torch.bfloat16),
            )
            for _ in range(max(1, -(-4 * l2_bytes // pair_bytes)))
        ]
        cycle = itertools.cycle(pairs)
        ours = benchmark(lambda c=cycle: torch.mm(*next(c)), device=device, repeat=20).median
        with torch.cuda.device(device):  # do_bench times on the current device
            theirs = do_bench(partial(torch.mm, *pairs[0]), return_mode="median") / 1e3  # ms -> s
        rows.append(
            {
                "n": n,
                "ours_s": ours,
                "do_bench_s": theirs,
                "ratio": ours / theirs,
                "operand_pairs": len(pairs),
                "operands_exceed_l2": len(pairs) * pair_bytes > l2_bytes,
            }
        )
    return rows
