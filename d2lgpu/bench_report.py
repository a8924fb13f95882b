"""The report of ``python -m d2lgpu bench``: plots and a summary drawn from its results.

What it is for: turning the dictionary that :func:`d2lgpu.bench.measure`
returns (and ``results.json`` stores) into three PNG plots, drawn with
:mod:`d2lgpu.plotting`, and a markdown summary a learner reads at a glance:

* ``matmul_tflops.png``: achieved TFLOP/s (GFLOP/s on a CPU, whose numbers
  are below 1 TFLOP/s) against matrix size, per dtype;
* ``crossover.png``: milliseconds per product on the CPU and on the GPU, and
  the size from which the GPU is faster (or, with one device, why only one
  curve is drawn);
* ``amp.png``: time and peak memory of one training step per precision;
* ``summary.md``: one row per measurement.

Every title names the machine and when it was measured. Every comparison of
two times is worded one way, faster one first: "bf16 is 1.8x faster than fp32".
A measurement whose repeats spread wider than the differences it shows, or
whose curve contradicts itself (a CPU product as slow at n = 64 as at 512), is
named by :func:`noise_warnings` and marked in the plot's title and in the
summary: the machine was busy, re-run. Results saved before spreads were
recorded still draw; only the spread-based check is skipped for them.

This module writes the summary; what it and the plots read from the results (the
crossover, the comparisons, the noise) is :mod:`d2lgpu._bench_findings`'s, and the plots
are :mod:`d2lgpu._bench_plots`'s. Every name is importable from here.

What it is not: a measurement. Nothing here runs on a device.
"""

from __future__ import annotations

from ._bench_findings import (
    accelerator,
    crossover,
    faster,
    machine_line,
    noise_warnings,
    noisy_measurements,
    throughput_unit,
    why_cpu_only,
)
from ._bench_plots import plot_amp, plot_crossover, plot_matmul_tflops, write_plots
from .plotting import plain_number

__all__ = [
    "crossover",
    "faster",
    "machine_line",
    "noise_warnings",
    "noisy_measurements",
    "plot_amp",
    "plot_crossover",
    "plot_matmul_tflops",
    "summary_markdown",
    "why_cpu_only",
    "write_plots",
]


def summary_markdown(results: dict) -> str:
    """A markdown table of ``results``: one row per measurement."""
    versions = f"torch {results['torch']}, CUDA {results['cuda'] or 'none'}"
    # The CPU is named separately only when it is not the device measured.
    cpu = results.get("cpu_name") if accelerator(results) else None
    lines = [
        f"# Bench results: {results['device_name']}",
        "",
        f"Measured on {machine_line(results)}; {versions}" + (f"; CPU {cpu}." if cpu else "."),
    ]
    if results.get("quick"):
        lines.append(
            "Quick sizes: a check that the bench runs, too small to compare with other machines."
        )
    warnings = noise_warnings(results)
    if warnings:
        lines += ["", "**Noisy measurements** (marked NOISY below):", ""]
        lines += [f"- {w}" for w in warnings]
    lines += ["", "| measurement | value |", "| --- | --- |"]
    lines += _matmul_rows(results) + _transfer_rows(results) + _step_rows(results)
    return "\n".join(_mark_noisy(lines, noisy_measurements(results))) + "\n"


def _mark_noisy(lines: list[str], noisy: dict) -> list[str]:
    """Prefix "NOISY: " to the value of each table row drawn from a noisy measurement."""
    prefixes = {
        "cpu_matmul": ("| CPU vs GPU matrix product",),
        "amp": ("| training step",),
        "frobenius": ("| Frobenius loop",),
    }
    for key in noisy:
        dt = key.split()[1] if key.startswith("matmul ") else None
        starts: tuple[str, ...] = (f"| matmul {dt}, best",) if dt else prefixes.get(key, ())
        if dt == "fp32":
            starts += ("| CPU vs GPU matrix product",)
        for i, line in enumerate(lines):
            if line.startswith(starts) and "NOISY" not in line:
                name, value = line.rsplit(" | ", 1)[0], line.rsplit(" | ", 1)[1]
                lines[i] = f"{name} | NOISY: {value}"
    return lines


def _matmul_rows(results: dict) -> list[str]:
    sheet = results.get("datasheet") or {}
    unit, scale = throughput_unit(results)
    rows = []
    for dt, peak in results["measured_peak_tflops"].items():
        ref = sheet.get("tflops", {}).get(dt)
        ratio = f" ({peak / ref:.0%} of datasheet {ref:g})" if ref else " (no datasheet entry)"
        rows.append(f"| matmul {dt}, best {unit} | {plain_number(peak * scale)}{ratio} |")
    point = crossover(results)
    if accelerator(results) is None:
        rows.append(f"| CPU vs GPU matrix product | CPU only: {why_cpu_only(results)} |")
    elif point is not None:
        n = point["largest_common_n"]
        start = (
            f"GPU faster from n = {point['from_n']}"
            if point["from_n"]
            else "GPU not faster at any size measured on both"
        )
        rows.append(
            f"| CPU vs GPU matrix product, fp32 | {start}; at n = {n} "
            f"{faster('the GPU', point['gpu_s'], 'the CPU', point['cpu_s'])} |"
        )
    return rows


def _transfer_rows(results: dict) -> list[str]:
    sheet = results.get("datasheet") or {}
    copy = results["copy"]
    ref = sheet.get("bandwidth_tbs")
    ratio = f" ({copy['gb_per_s'] / (ref * 1e3):.0%} of datasheet {ref:g} TB/s)" if ref else ""
    rows = [
        f"| copy bandwidth ({copy['mib']} MiB) | {plain_number(copy['gb_per_s'])} GB/s{ratio} |"
    ]
    if "host_to_device" in results:
        h2d = results["host_to_device"]
        pageable, pinned = h2d["pageable_gb_per_s"], h2d["pinned_gb_per_s"]
        # Same bytes each way, so the time ratio is the inverse of the bandwidth ratio.
        rows.append(
            f"| host-to-device ({h2d['mib']} MiB), pageable / pinned | {plain_number(pageable)} / "
            f"{plain_number(pinned)} GB/s: {faster('pinned', 1 / pinned, 'pageable', 1 / pageable)} |"
        )
    launch = results["launch"]
    eager, graph = launch["eager_us_per_kernel"], launch.get("graph_us_per_kernel")
    value = f"{eager:.3g} us per kernel"
    if graph:
        value = (
            f"{eager:.3g} / {graph:.3g} us per kernel: "
            f"{faster('the CUDA graph', graph, 'eager', eager)}"
        )
    else:
        value += " (CUDA graphs: CUDA only)"
    rows.append(f"| tiny kernel ({launch['kernels']}), eager / CUDA graph | {value} |")
    return rows


def _step_rows(results: dict) -> list[str]:
    from .timing import format_seconds

    frob = results["frobenius"]
    per_step, at_end = frob["per_step_seconds"], frob["at_end_seconds"]
    rows = [
        f"| Frobenius loop ({frob['steps']} steps), per-step `.item()` / log at end "
        f"| {format_seconds(per_step)} / {format_seconds(at_end)}: "
        f"{faster('log at end', at_end, 'per-step `.item()`', per_step)} |"
    ]
    steps = results["amp"]["steps"]
    base = steps[0]
    for s in steps:
        mem = f", peak {s['peak_bytes'] / 2**20:.0f} MiB" if s["peak_bytes"] is not None else ""
        vs = (
            ""
            if s is base
            else ": " + faster(s["precision"], s["seconds"], base["precision"], base["seconds"])
        )
        rows.append(f"| training step {s['precision']} | {s['seconds'] * 1e3:.3g} ms{mem}{vs} |")
    if isinstance(results.get("do_bench"), list):
        for row in results["do_bench"]:
            rows.append(
                f"| our timer vs triton do_bench, bf16 n = {row['n']} "
                f"| {format_seconds(row['ours_s'])} / {format_seconds(row['do_bench_s'])}: "
                f"{abs(row['ratio'] - 1):.1%} apart"
                + ("" if row["operands_exceed_l2"] else " (operands fit in L2)")
                + " |"
            )
    elif results.get("do_bench"):
        rows.append(f"| our timer vs triton do_bench | not run: {results['do_bench']} |")
    return rows
