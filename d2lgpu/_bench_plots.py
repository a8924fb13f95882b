"""The bench's three plots (:mod:`d2lgpu.bench_report`), drawn with :mod:`d2lgpu.plotting`:
throughput against matrix size, the CPU against the GPU, and a training step per precision;
:func:`write_plots` saves them as PNG files.

What it is not: what the plots read from the results (:mod:`d2lgpu._bench_findings`).
"""

from __future__ import annotations

from pathlib import Path

from ._bench_findings import (
    accelerator,
    crossover,
    faster,
    machine_line,
    noisy_measurements,
    noisy_title,
    throughput_unit,
    why_cpu_only,
)

__all__ = ["plot_amp", "plot_crossover", "plot_matmul_tflops", "write_plots"]


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
    unit, scale = throughput_unit(results)
    sizes = [p["n"] for p in next(iter(curves.values()))]
    noisy = noisy_measurements(results)
    fig = plot_vs_size(
        sizes,
        {dt: [p["tflops"] * scale for p in pts] for dt, pts in curves.items()},
        xlabel="matrix size n (an n x n times n x n product)",
        ylabel=f"{unit} achieved (higher is better)",
        title=f"Matrix-product throughput\n{machine_line(results)}"
        + noisy_title(noisy, *(f"matmul {dt}" for dt in curves)),
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
    kind = accelerator(results)
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
        + noisy_title(noisy, "cpu_matmul", *(["matmul fp32"] if kind else [])),
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
        f"{machine_line(results)}" + noisy_title(noisy_measurements(results), "amp")
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
