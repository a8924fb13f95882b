"""The course's reference measurements: ``python -m d2lgpu bench``.

Measures, on whatever device is present, with the course's own
:func:`d2lgpu.timing.benchmark` (synchronized, warmed up):

* matrix-product time and achieved TFLOP/s against size, for fp32 (highest
  precision), tf32, bf16 and fp16, next to the measured peak and the
  datasheet peak (from :mod:`d2lgpu.hardware`);
* the CPU matrix-product curve, for the CPU-GPU crossover;
* device-to-device copy bandwidth, and host-to-device bandwidth from
  pageable and from pinned memory;
* launch overhead: many tiny kernels launched one by one, and the same
  kernels replayed as one CUDA graph;
* the cost of a per-step ``.item()`` in the 100x100 Frobenius-norm loop;
* one training step of the mixed-precision chapter's model in fp32, bf16
  and fp16 (time and peak memory);
* on CUDA with Triton installed, a check of the timer against
  ``triton.testing.do_bench``.

It writes ``results.json`` into an output folder, then draws the PNG plots
and ``summary.md`` from it with :mod:`d2lgpu.bench_report` (which measures
nothing, and can redraw an earlier ``results.json``). On a CPU-only machine it runs the CPU parts at small sizes.
``--quick`` shrinks everything further (CI runs that).

It is not a general benchmark suite: each measurement is one the chapters
discuss, and each takes seconds.
"""

from __future__ import annotations

import json
import os
from contextlib import contextmanager
from datetime import datetime
from pathlib import Path

import torch
from torch import nn

from .devices import (
    DEVICE_ENV_VAR,
    cpu_name,
    default_device,
    device_name,
    env_report,
    try_accelerator,
)
from .memory import peak_memory
from .models import amp_sizes, linear_stack
from .timing import benchmark, sync

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
    "measure",
    "run",
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


def matmul_curve(device, dtype_name: str, sizes, *, repeat: int = 5) -> list[dict]:
    """Time an n x n x n product for each size; return time and TFLOP/s per size."""
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
            )
    return points


def copy_bandwidth(device, mib: int) -> dict:
    """Device-to-device copy bandwidth: bytes read plus bytes written per second."""
    device = torch.device(device)
    n = mib * 2**20 // 4
    src = torch.ones(n, device=device)
    dst = torch.empty_like(src)
    result = benchmark(dst.copy_, src, device=device, repeat=5)
    return {"mib": mib, "seconds": result.median, "gb_per_s": 2 * n * 4 / result.median / 1e9}


def host_to_device_bandwidth(device, mib: int) -> dict:
    """Host-to-device copy bandwidth from pageable and from pinned host memory (CUDA only)."""
    n = mib * 2**20 // 4
    pageable = torch.ones(n)
    pinned = torch.ones(n).pin_memory()
    dst = torch.empty(n, device=device)
    out = {"mib": mib}
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
    out = {"kernels": kernels, "eager_us_per_kernel": eager.median / kernels * 1e6}
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
    return {"precision": precision, "seconds": result.median, "peak_bytes": mem.peak}


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


def measure(device, *, quick: bool = False) -> dict:
    """Run every measurement that fits ``device`` and return a JSON-friendly dict."""
    device = torch.device(device)
    cuda = device.type == "cuda"
    report = env_report()
    name = device_name(device)
    results: dict = {
        "device": str(device),
        "device_name": name,
        "cpu_name": cpu_name(),
        "measured_at": datetime.now().astimezone().isoformat(timespec="minutes"),
        "torch": torch.__version__,
        "cuda": torch.version.cuda,
        "env": report,
        "quick": quick,
    }
    results["datasheet"] = _datasheet(name) if cuda else None

    if cuda:
        sizes = [256, 512, 1024, 2048, 4096] if quick else [256, 512, 1024, 2048, 4096, 8192]
        results["matmul"] = {dt: matmul_curve(device, dt, sizes) for dt in DTYPES}
    else:
        sizes = [64, 128, 256] if quick else [64, 128, 256, 512, 1024]
        # bf16 and fp16 matmuls on a CPU without AMX are slow: fp32 only here.
        results["matmul"] = {"fp32": matmul_curve(device, "fp32", sizes)}
    cpu_sizes = [64, 128, 256] if quick else [64, 128, 256, 512, 1024, 2048]
    results["cpu_matmul"] = matmul_curve("cpu", "fp32", cpu_sizes, repeat=3)
    results["measured_peak_tflops"] = {
        dt: max(p["tflops"] for p in pts) for dt, pts in results["matmul"].items()
    }
    results["copy"] = copy_bandwidth(device, 16 if quick else (1024 if cuda else 256))
    if cuda:
        results["host_to_device"] = host_to_device_bandwidth(device, 64 if quick else 512)
    results["launch"] = launch_overhead(device)
    results["frobenius"] = frobenius_item_cost(device, steps=200 if quick else 1000)
    # On a GPU, chapter 4's sizes (d2lgpu.models.amp_sizes): its products dominate the step.
    width, batch = amp_sizes(device)[:2] if cuda else ((128, 32) if quick else (512, 64))
    precisions = ["fp32", "tf32", "bf16", "fp16"] if cuda else ["fp32", "bf16"]
    results["amp"] = {
        "width": width,
        "batch": batch,
        "steps": [amp_step(device, width, batch, p) for p in precisions],
    }
    if cuda and not quick:
        try:
            results["do_bench"] = do_bench_comparison(device, [2048, 4096, 8192])
        except ImportError:
            results["do_bench"] = "triton is not installed"
    sync(device)
    return results


def _datasheet(name: str):
    from dataclasses import asdict

    from . import hardware

    entry = hardware.datasheet(name)
    return None if entry is None else asdict(entry)


def run(out="bench-results", quick: bool = False, device=None, results_json=None) -> int:
    """Measure, then write results.json, the plots and summary.md into ``out``.

    With ``results_json`` (the path of an earlier ``results.json``) nothing is
    measured: the plots and summary are drawn again from those results.
    """
    from .bench_report import summary_markdown, write_plots

    out = Path(out)
    if results_json is not None:
        path = Path(results_json)
        if not path.is_file():
            raise FileNotFoundError(f"results_json: no such file {str(path)!r}")
        results = json.loads(path.read_text())
        print(f"drawing the report of {path} (measuring nothing)")
    else:
        if device is None:  # the best device here (mps too), unless D2LGPU_DEVICE names one
            device = default_device() if os.environ.get(DEVICE_ENV_VAR) else try_accelerator()
        device = torch.device(device)
        print(f"measuring on {device} ({'quick' if quick else 'full'} sizes)...")
        results = measure(device, quick=quick)
    out.mkdir(parents=True, exist_ok=True)
    if results_json is None or path.resolve() != (out / "results.json").resolve():
        (out / "results.json").write_text(json.dumps(results, indent=2) + "\n")
    plots = write_plots(results, out)
    summary = summary_markdown(results)
    (out / "summary.md").write_text(summary)
    print(summary)
    print(f"wrote {out / 'results.json'}, {out / 'summary.md'} and {len(plots)} plots in {out}/")
    return 0
