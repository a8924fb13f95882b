"""What :mod:`d2lgpu.bench_report` reads from the bench's results before it draws or writes
anything: which device ran, where the GPU gets faster than the CPU, how two times compare
("bf16 is 1.8x faster than fp32"), and which measurements show a busy machine rather than
the device (:func:`noisy_measurements`).

What it is not: a plot or a table (:mod:`d2lgpu._bench_plots`, :mod:`d2lgpu.bench_report`).
"""

from __future__ import annotations

from datetime import datetime

__all__ = [
    "accelerator",
    "crossover",
    "faster",
    "machine_line",
    "noise_warnings",
    "noisy_measurements",
    "noisy_title",
    "throughput_unit",
    "why_cpu_only",
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


def accelerator(results: dict) -> str | None:
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
    if accelerator(results) is None:
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
    cpu_run = accelerator(results) is None
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


def noisy_title(noisy: dict, *keys) -> str:
    return f"\n{_NOISY_MARK}" if any(k in noisy for k in keys) else ""


def throughput_unit(results: dict) -> tuple[str, float]:
    """``("GFLOP/s", 1e3)`` for a CPU run below 1 TFLOP/s, else ``("TFLOP/s", 1.0)``."""
    peak = max(results["measured_peak_tflops"].values(), default=0.0)
    return ("GFLOP/s", 1e3) if accelerator(results) is None and peak < 1 else ("TFLOP/s", 1.0)
