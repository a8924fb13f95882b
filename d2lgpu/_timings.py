"""What :func:`d2lgpu.timing.benchmark` returns, and how timings read: a
:class:`BenchmarkResult` (seconds per call, with its median and spread), :func:`compare` (a
few results as a small table) and :func:`format_seconds` (a duration in ns, us, ms or s).

What it is not: the timing itself (:mod:`d2lgpu.timing`).
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field

__all__ = ["BenchmarkResult", "compare", "format_seconds"]


@dataclass
class BenchmarkResult:
    """Seconds per call of one benchmarked function.

    ``samples`` holds one value per measurement, each the mean over ``number``
    calls; ``median`` and ``iqr`` (interquartile range) summarize them.
    """

    label: str
    samples: list[float]
    number: int
    device: str
    threads: int
    unit: str = "s"
    metadata: dict = field(default_factory=dict)
    clock: str = "wall"

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def mean(self) -> float:
        return statistics.fmean(self.samples)

    @property
    def min(self) -> float:
        return min(self.samples)

    @property
    def iqr(self) -> float:
        if len(self.samples) < 2:
            return 0.0
        q = statistics.quantiles(self.samples, n=4, method="inclusive")
        return q[2] - q[0]

    def rate(self, work: float) -> float:
        """Return ``work`` per second at the median time (e.g. FLOP/s for FLOPs)."""
        return work / self.median

    def __str__(self) -> str:
        return (
            f"{self.label}: {format_seconds(self.median)} median "
            f"(IQR {format_seconds(self.iqr)}, {len(self.samples)} x {self.number} calls, "
            f"{self.device}{', thread CPU time' if self.clock == 'thread' else ''})"
        )


def compare(results: list[BenchmarkResult], baseline: int = 0) -> str:
    """Return a small text table of ``results``, with speed-ups over ``results[baseline]``."""
    if not results:
        raise ValueError("results must be a non-empty list of BenchmarkResult")
    if not 0 <= baseline < len(results):
        raise ValueError(f"baseline must be an index into results (0..{len(results) - 1})")
    clocks = sorted({r.clock for r in results})
    if len(clocks) > 1:
        raise ValueError(f"results must share one clock to be compared, got {clocks}")
    base = results[baseline].median
    width = max(len(r.label) for r in results)
    lines = [f"{'':{width}}  {'median':>10}  {'IQR':>10}  {'speed-up':>8}"]
    for r in results:
        lines.append(
            f"{r.label:{width}}  {format_seconds(r.median):>10}  "
            f"{format_seconds(r.iqr):>10}  {base / r.median:>7.2f}x"
        )
    return "\n".join(lines)


def format_seconds(seconds: float) -> str:
    """Format a duration with a readable unit (ns, us, ms or s)."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if abs(seconds) >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.3g} ns"
