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

What it is not: a measurement. Nothing here runs on a device.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

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


def faster(name_a: str, seconds_a: float, name_b: str, seconds_b: float) -> str:
    """Compare two times as "A is 2.1x faster than B", the faster one first.

    The ratio is therefore never below 1, whichever of the two won.
    """
    for name, seconds in ((name_a, seconds_a), (name_b, seconds_b)):
        if not seconds > 0:
            raise ValueError(f"the time of {name!r} must be > 0 seconds, got {seconds!r}")
    if seconds_a > seconds_b:
        name_a, seconds_a, name_b, seconds_b = name_b, seconds_b, name_a, seconds_a
    return f"{name_a} is {seconds_b / seconds_a:.3g}x faster than {name_b}"


def machine_line(results: dict) -> str:
    """Whose machine and when: "NVIDIA H100 (cuda:0), 2026-05-01 14:02, quick sizes"."""
    when = results.get("measured_at")
    when = datetime.fromisoformat(when).strftime("%Y-%m-%d %H:%M") if when else "date unknown"
    line = f"{results['device_name']} ({results['device']}), {when}"
    return line + (", quick sizes" if results.get("quick") else "")


def _accelerator(results: dict) -> str | None:
    """The device type of the run's accelerator ("cuda", "mps"), or None for a CPU run."""
    kind = results["device"].split(":")[0]
    return None if kind == "cpu" else kind


def why_cpu_only(results: dict) -> str:
    """Why a run has no GPU curve: the machine has none, or the run was told to use the CPU."""
    env = results.get("env") or {}
    if env.get("gpus") or env.get("mps_available"):
        return "the bench ran on the CPU although this machine has a GPU"
    return "this machine has no GPU that PyTorch can use"


def crossover(results: dict) -> dict | None:
    """Where the accelerator's fp32 product gets faster than the CPU's, from the two curves.

    Returns ``{"from_n": n or None, "largest_common_n": n, "cpu_s": s, "gpu_s": s}``
    (``from_n`` is the smallest size measured on both at which the GPU is
    faster and stays faster), or None for a CPU-only run or curves with no
    size in common.
    """
    if _accelerator(results) is None:
        return None
    cpu = {p["n"]: p["seconds"] for p in results["cpu_matmul"]}
    gpu = {p["n"]: p["seconds"] for p in results["matmul"]["fp32"]}
    common = sorted(set(cpu) & set(gpu))
    if not common:
        return None
    from_n = None
    for n in reversed(common):
        if gpu[n] >= cpu[n]:
            break
        from_n = n
    last = common[-1]
    return {"from_n": from_n, "largest_common_n": last, "cpu_s": cpu[last], "gpu_s": gpu[last]}


_BUSY = "the machine was busy while it was measured: re-run the bench when it is idle"
_NOISY_MARK = "NOISY: the machine was busy, re-run"


def _spread(point: dict) -> float:
    """The spread of a measurement's repeats in seconds: its IQR, else 0 (older results)."""
    return point.get("iqr_seconds") or 0.0


def _curve_noise(points: list[dict], *, cpu: bool) -> str | None:
    """Why a matrix-product curve cannot be read as measured, or None."""
    from .timing import format_seconds

    for a, b in zip(points, points[1:], strict=False):
        spread, diff = max(_spread(a), _spread(b)), abs(b["seconds"] - a["seconds"])
        if spread > diff and spread > 0.1 * min(a["seconds"], b["seconds"]):
            return (
                f"its repeats at n = {a['n']} and n = {b['n']} spread over "
                f"{format_seconds(spread)}, more than the {format_seconds(diff)} between them"
            )
        # A CPU has no launch floor: twice the size is 8x the work, so it cannot take the same time.
        if cpu and b["n"] >= 2 * a["n"] >= 128 and b["seconds"] < 1.2 * a["seconds"]:
            return (
                f"n = {a['n']} and n = {b['n']} take about the same time "
                f"({format_seconds(a['seconds'])}, {format_seconds(b['seconds'])}) "
                f"though n = {b['n']} is {(b['n'] / a['n']) ** 3:.0f}x the work"
            )
    return None


def _pair_noise(name_a, seconds_a, spread_a, name_b, seconds_b, spread_b) -> str | None:
    from .timing import format_seconds

    spread, diff = max(spread_a, spread_b), abs(seconds_a - seconds_b)
    if spread > diff and spread > 0.1 * min(seconds_a, seconds_b):
        return (
            f"the repeats spread over {format_seconds(spread)}, more than the "
            f"{format_seconds(diff)} between {name_a} and {name_b}"
        )
    return None


def noisy_measurements(results: dict) -> dict[str, str]:
    """``{measurement: why}`` for each measurement that shows noise rather than the device.

    The keys are ``"matmul <dtype>"``, ``"cpu_matmul"``, ``"amp"`` and
    ``"frobenius"``. A measurement is noisy when the spread (IQR) of its
    repeats is larger than the difference it is meant to show (and over 10%
    of the time), when a CPU product takes as long at one size as at twice
    that size, or when the same CPU product was timed twice in one run and
    the two times differ by more than 2x.
    """
    cpu_run = _accelerator(results) is None
    noisy = {}
    for dt, points in results["matmul"].items():
        if why := _curve_noise(points, cpu=cpu_run):
            noisy[f"matmul {dt}"] = why
    if why := _curve_noise(results["cpu_matmul"], cpu=True):
        noisy["cpu_matmul"] = why
    if cpu_run and "fp32" in results["matmul"]:  # the same product timed twice: do they agree?
        first = {p["n"]: p["seconds"] for p in results["matmul"]["fp32"]}
        for p in results["cpu_matmul"]:
            other = first.get(p["n"])
            if other and max(other, p["seconds"]) > 2 * min(other, p["seconds"]):
                why = (
                    f"the same fp32 product at n = {p['n']} was timed twice in this run, "
                    f"{other * 1e3:.3g} ms and {p['seconds'] * 1e3:.3g} ms"
                )
                noisy.setdefault("matmul fp32", why)
                noisy.setdefault("cpu_matmul", why)
                break
    steps = results["amp"]["steps"]
    for s in steps[1:]:
        why = _pair_noise(
            s["precision"], s["seconds"], _spread(s),
            steps[0]["precision"], steps[0]["seconds"], _spread(steps[0]),
        )  # fmt: skip
        if why:
            noisy["amp"] = why
            break
    frob = results["frobenius"]
    why = _pair_noise(
        "per-step .item()", frob["per_step_seconds"], frob.get("per_step_iqr_seconds") or 0.0,
        "log at end", frob["at_end_seconds"], frob.get("at_end_iqr_seconds") or 0.0,
    )  # fmt: skip
    if why:
        noisy["frobenius"] = why
    return noisy


_NAMES = {
    "cpu_matmul": "the CPU matrix-product curve (crossover.png)",
    "amp": "the training step per precision (amp.png)",
    "frobenius": "the Frobenius loop",
}


def noise_warnings(results: dict) -> list[str]:
    """One sentence per noisy measurement: which one, why, and to re-run."""
    return [
        f"{_NAMES.get(key, f'the {key} curve (matmul_tflops.png)')} is noisy: {why}; {_BUSY}."
        for key, why in noisy_measurements(results).items()
    ]


def _noisy_title(noisy: dict, *keys) -> str:
    return f"\n{_NOISY_MARK}" if any(k in noisy for k in keys) else ""


def _throughput_unit(results: dict) -> tuple[str, float]:
    """``("GFLOP/s", 1e3)`` for a CPU run below 1 TFLOP/s, else ``("TFLOP/s", 1.0)``."""
    peak = max(results["measured_peak_tflops"].values(), default=0.0)
    return ("GFLOP/s", 1e3) if _accelerator(results) is None and peak < 1 else ("TFLOP/s", 1.0)


def _save(fig, path: Path) -> Path:
    fig.savefig(path, dpi=100, bbox_inches="tight")
    import matplotlib.pyplot as plt

    plt.close(fig)
    return path


def plot_matmul_tflops(results: dict):
    """Achieved throughput against n, one line per dtype, with the datasheet bf16 peak if known.

    TFLOP/s, or GFLOP/s for a CPU run whose numbers are below 1 TFLOP/s; the label says which.
    """
    from .plotting import plot_vs_size

    curves = results["matmul"]
    unit, scale = _throughput_unit(results)
    sizes = [p["n"] for p in next(iter(curves.values()))]
    noisy = noisy_measurements(results)
    fig = plot_vs_size(
        sizes,
        {dt: [p["tflops"] * scale for p in pts] for dt, pts in curves.items()},
        xlabel="matrix size n (an n x n times n x n product)",
        ylabel=f"{unit} achieved (higher is better)",
        title=f"Matrix-product throughput\n{machine_line(results)}"
        + _noisy_title(noisy, *(f"matmul {dt}" for dt in curves)),
    )
    (ax,) = fig.axes
    peak = ((results.get("datasheet") or {}).get("tflops") or {}).get("bf16")
    if peak:
        peak *= scale
        ax.axhline(
            peak, color="gray", linestyle="--", label=f"datasheet bf16 peak, {peak:g} {unit}"
        )
        ax.set_ylim(top=max(ax.get_ylim()[1], peak * 1.5))  # the line inside the frame
        ax.legend()
    return fig


def plot_crossover(results: dict):
    """Milliseconds per fp32 product on the CPU and on the accelerator, against n."""
    from .plotting import plot_vs_size

    curves = {"CPU": {p["n"]: p["seconds"] for p in results["cpu_matmul"]}}
    kind = _accelerator(results)
    if kind:
        curves[f"GPU ({kind})"] = {p["n"]: p["seconds"] for p in results["matmul"]["fp32"]}
    sizes = sorted({n for curve in curves.values() for n in curve})
    series = {f"{label} fp32": [curve.get(n) for n in sizes] for label, curve in curves.items()}
    point = crossover(results)
    if kind is None:
        note = f"CPU only: {why_cpu_only(results)}"
    elif point is None:
        note = "the CPU and GPU curves have no size in common"
    elif point["from_n"] is None:
        note = "the GPU is not faster than the CPU at any size measured on both"
    else:
        note = f"the GPU is faster from n = {point['from_n']}"
    title = "Matrix product, CPU vs GPU" if kind else "Matrix product"
    noisy = noisy_measurements(results)
    return plot_vs_size(  # seconds, drawn in microseconds or milliseconds as the numbers need
        sizes,
        series,
        xlabel="matrix size n (an n x n times n x n product)",
        ylabel="seconds per product (lower is better)",
        title=f"{title}: {note}\n{machine_line(results)}"
        + _noisy_title(noisy, "cpu_matmul", *(["matmul fp32"] if kind else [])),
        seconds=True,
    )


def plot_amp(results: dict):
    """Milliseconds per training step per precision, and peak memory where PyTorch reports it."""
    import matplotlib.pyplot as plt

    from .plotting import plot_bars

    steps = {s["precision"]: s for s in results["amp"]["steps"]}
    base_name, base = next(iter(steps.items()))
    memory = all(s["peak_bytes"] is not None for s in steps.values())
    fig, axes = plt.subplots(
        1, 2 if memory else 1, figsize=(11, 4) if memory else (6, 4), layout="constrained",
        squeeze=False,
    )  # fmt: skip
    notes = {p: f"{s['seconds'] * 1e3:.3g} ms" for p, s in steps.items()}
    for p, s in steps.items():
        if p != base_name:  # "bf16 is 1.8x\nfaster than fp32": narrow enough for four bars
            comparison = faster(p, s["seconds"], base_name, base["seconds"])
            notes[p] += "\n" + comparison.replace("x faster", "x\nfaster")
    plot_bars(
        {p: s["seconds"] * 1e3 for p, s in steps.items()},
        ylabel="milliseconds per training step (lower is better)",
        title="time per step"
        + (
            "" if memory else f" (no memory panel: PyTorch counts no memory on {results['device']})"
        ),
        notes=notes,
        ax=axes[0][0],
    )
    if memory:
        plot_bars(
            {p: s["peak_bytes"] / 2**20 for p, s in steps.items()},
            ylabel="peak MiB allocated (lower is better)",
            title="peak memory",
            ax=axes[0][1],
        )
    amp = results["amp"]
    fig.suptitle(
        f"One training step per precision (width {amp['width']}, batch {amp['batch']})\n"
        f"{machine_line(results)}" + _noisy_title(noisy_measurements(results), "amp")
    )
    return fig


def write_plots(results: dict, out) -> list[Path]:
    """Draw ``matmul_tflops.png``, ``crossover.png`` and ``amp.png`` into ``out``."""
    import matplotlib

    matplotlib.use("Agg")  # files only: no window, also on a machine without a display
    out = Path(out)
    return [
        _save(plot_matmul_tflops(results), out / "matmul_tflops.png"),
        _save(plot_crossover(results), out / "crossover.png"),
        _save(plot_amp(results), out / "amp.png"),
    ]


def summary_markdown(results: dict) -> str:
    """A markdown table of ``results``: one row per measurement."""
    versions = f"torch {results['torch']}, CUDA {results['cuda'] or 'none'}"
    # The CPU is named separately only when it is not the device measured.
    cpu = results.get("cpu_name") if _accelerator(results) else None
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
    unit, scale = _throughput_unit(results)
    rows = []
    for dt, peak in results["measured_peak_tflops"].items():
        ref = sheet.get("tflops", {}).get(dt)
        ratio = f" ({peak / ref:.0%} of datasheet {ref:g})" if ref else " (no datasheet entry)"
        rows.append(f"| matmul {dt}, best {unit} | {plain_number(peak * scale)}{ratio} |")
    point = crossover(results)
    if _accelerator(results) is None:
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
