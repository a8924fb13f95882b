"""The course's reference measurements: ``python -m d2lgpu bench``.

Measures, on whatever device is present, with the course's own
:func:`d2lgpu.timing.benchmark` (synchronized, warmed up; the measurements
are in :mod:`d2lgpu.bench_measures`):

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
nothing, and can redraw an earlier ``results.json``). On a CPU-only machine it runs the CPU parts
at small sizes. It prints one line per measurement as it goes, and a warning
for each measurement whose repeats spread wider than the differences it is
meant to show (the machine was busy: re-run).
``--quick`` shrinks everything further (CI runs that).

It is not a general benchmark suite: each measurement is one the chapters
discuss, and each takes seconds.
"""

from __future__ import annotations

import json
import os
import time
from datetime import datetime
from pathlib import Path

import torch

from .bench_measures import (
    DTYPES,
    amp_step,
    copy_bandwidth,
    do_bench_comparison,
    frobenius_item_cost,
    host_to_device_bandwidth,
    launch_overhead,
    matmul_curve,
)
from .devices import (
    DEVICE_ENV_VAR,
    cpu_name,
    default_device,
    device_name,
    env_report,
    try_accelerator,
)
from .models import amp_sizes
from .timing import sync

__all__ = ["measure", "run"]


def _step(what: str, fn, *args, **kwargs):
    """Run one measurement and print one line saying what it was and how long it took."""
    start = time.perf_counter()
    out = fn(*args, **kwargs)
    print(f"  {what}: {time.perf_counter() - start:.1f} s", flush=True)
    return out


def _sizes(sizes) -> str:
    return f"n = {sizes[0]}..{sizes[-1]}"


def measure(device, *, quick: bool = False) -> dict:
    """Run every measurement that fits ``device`` and return a JSON-friendly dict.

    Prints one line per measurement as it finishes, so a long run shows progress.
    """
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
        results["matmul"] = {
            dt: _step(f"matmul {dt} on {device}, {_sizes(sizes)}", matmul_curve, device, dt, sizes)
            for dt in DTYPES
        }
    else:
        sizes = [64, 128, 256] if quick else [64, 128, 256, 512, 1024]
        # bf16 and fp16 matmuls on a CPU without AMX are slow: fp32 only here.
        results["matmul"] = {
            "fp32": _step(
                f"matmul fp32 on {device}, {_sizes(sizes)}", matmul_curve, device, "fp32", sizes
            )
        }
    cpu_sizes = [64, 128, 256] if quick else [64, 128, 256, 512, 1024, 2048]
    results["cpu_matmul"] = _step(
        f"matmul fp32 on cpu (the crossover's CPU curve), {_sizes(cpu_sizes)}",
        matmul_curve, "cpu", "fp32", cpu_sizes, repeat=3,
    )  # fmt: skip
    results["measured_peak_tflops"] = {
        dt: max(p["tflops"] for p in pts) for dt, pts in results["matmul"].items()
    }
    mib = 16 if quick else (1024 if cuda else 256)
    results["copy"] = _step(f"copy bandwidth, {mib} MiB", copy_bandwidth, device, mib)
    if cuda:
        mib = 64 if quick else 512
        results["host_to_device"] = _step(
            f"host-to-device bandwidth, {mib} MiB", host_to_device_bandwidth, device, mib
        )
    results["launch"] = _step("launch overhead, 200 tiny kernels", launch_overhead, device)
    steps = 200 if quick else 1000
    results["frobenius"] = _step(
        f"Frobenius loop, {steps} steps", frobenius_item_cost, device, steps=steps
    )
    # On a GPU, chapter 4's sizes (d2lgpu.models.amp_sizes): its products dominate the step.
    width, batch = amp_sizes(device)[:2] if cuda else ((128, 32) if quick else (512, 64))
    precisions = ["fp32", "tf32", "bf16", "fp16"] if cuda else ["fp32", "bf16"]
    results["amp"] = {
        "width": width,
        "batch": batch,
        "steps": [
            _step(
                f"training step {p}, width {width}, batch {batch}",
                amp_step,
                device,
                width,
                batch,
                p,
            )
            for p in precisions
        ],
    }
    if cuda and not quick:
        try:
            results["do_bench"] = _step(
                "our timer vs triton do_bench", do_bench_comparison, device, [2048, 4096, 8192]
            )
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
    from .bench_report import noise_warnings, summary_markdown, write_plots

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
    for warning in noise_warnings(results):
        print(f"warning: {warning}")
    print(f"wrote {out / 'results.json'}, {out / 'summary.md'} and {len(plots)} plots in {out}/")
    return 0
