"""Numbers and labels that read at a glance, for :mod:`d2lgpu.plotting`'s plots: a time unit
for values in seconds, tick labels without exponents, and as many of them as fit side by side.

What it is not: a plot; these only label the axes a plot draws.
"""

from __future__ import annotations

__all__ = [
    "axes_length_pt",
    "is_seconds_label",
    "plain_linear",
    "plain_log_ticks",
    "plain_number",
    "plain_tick",
    "seconds_label",
    "size_ticks",
    "time_unit",
]

_TIME_UNITS = (("microseconds", 1e6), ("milliseconds", 1e3), ("seconds", 1.0))


def time_unit(seconds) -> tuple[str, float]:
    """``(name, factor)`` that shows ``seconds`` as numbers that read at a glance.

    Microseconds when the largest value is under a millisecond, milliseconds
    under a second, else seconds: ``time_unit([3e-5, 8e-5]) == ("microseconds", 1e6)``.
    """
    values = [abs(v) for v in seconds if v is not None and v == v]
    top = max(values) if values else 1.0
    for name, factor in _TIME_UNITS[:-1]:
        if top * factor < 1000:
            return name, factor
    return _TIME_UNITS[-1]


def is_seconds_label(label: str) -> bool:
    return label.split(" ", 1)[0] in ("seconds", "s")


def seconds_label(label: str, unit: str) -> str:
    """``"seconds per call (fastest)"`` in ``unit``: ``"microseconds per call (fastest)"``;
    a label that does not start with seconds gets the unit after it: ``"time (microseconds)"``."""
    if not is_seconds_label(label):
        return f"{label} ({unit})" if label else unit
    rest = label.split(" ", 1)[1] if " " in label else ""
    return f"{unit} {rest}".strip()


def plain_tick(value: float) -> str:
    """A tick label with no exponent: ``0.00005``, ``0.2``, ``200``, ``1000000``."""
    import numpy as np

    if value == 0:
        return "0"
    return np.format_float_positional(float(f"{value:.6g}"), trim="-")


def _label_width_pt(text: str, axis) -> float:
    """A generous estimate of a tick label's width in points (digits are ~0.6 em wide)."""
    size = axis.get_ticklabels()[0].get_size() if axis.get_ticklabels() else 10.0
    return 0.65 * size * len(text) + 0.5 * size


def axes_length_pt(ax, which: str) -> float:
    """The axes' length along x or y in points, before the layout shrinks it (so, x 0.8)."""
    box = ax.get_position()
    width, height = ax.figure.get_size_inches()
    return 72 * 0.8 * (box.width * width if which == "x" else box.height * height)


def size_ticks(ax, sizes) -> None:
    """On a log x axis, a tick at every measured size and a label at those that fit.

    Labels are kept from the smallest size up, skipping any that would touch
    the last one kept; the others keep an unlabelled tick.
    """
    import math

    from matplotlib.ticker import NullLocator

    sizes = sorted(set(sizes))
    length = axes_length_pt(ax, "x")
    span = math.log(sizes[-1] / sizes[0]) or 1.0
    labels, last = [], None
    for s in sizes:
        text = plain_tick(s)
        x = math.log(s / sizes[0]) / span * length
        width = _label_width_pt(text, ax.xaxis)
        if last is None or x - last[0] >= (width + last[1]) / 2:
            labels.append(text)
            last = (x, width)
        else:
            labels.append("")
    ax.set_xticks(sizes, labels=labels)
    ax.xaxis.set_minor_locator(NullLocator())


def plain_linear(axis) -> None:
    """Plain numbers on a linear axis too: ``0.00005``, never ``5e-05`` or an offset."""
    from matplotlib.ticker import FuncFormatter

    axis.set_major_formatter(FuncFormatter(lambda v, _pos: plain_tick(v)))


def plain_log_ticks(axis, values) -> None:
    """Label a log ``axis`` with plain numbers (``0.05``, ``200``), enough of them to read.

    Matplotlib's default labels a log axis with powers of ten and, over less
    than a decade, with ``6 x 10^1``-style minor labels. Here ticks sit at
    1, 2 and 5 times powers of ten (about five evenly spaced round numbers
    over less than a decade, only powers of ten over more than four decades),
    labelled as numbers without exponents; the other minor ticks stay unlabelled.
    """
    import math

    from matplotlib.ticker import FuncFormatter, Locator, LogLocator, MaxNLocator, NullFormatter

    values = [v for v in values if v is not None and v > 0]
    decades = math.log10(max(values) / min(values)) if values else 1.0
    if decades < 1:  # round numbers, as on a linear axis: 46, 47, 48 (never 4.8 x 10^1)
        major: Locator = MaxNLocator(nbins=5, steps=[1, 2, 2.5, 5, 10])
    elif decades <= 4:
        major = LogLocator(base=10, subs=(1.0, 2.0, 5.0))
    else:
        major = LogLocator(base=10, subs=(1.0,))
    axis.set_major_locator(major)
    axis.set_major_formatter(FuncFormatter(lambda v, _pos: plain_tick(v)))
    axis.set_minor_locator(LogLocator(base=10, subs="auto"))
    axis.set_minor_formatter(NullFormatter())


def plain_number(value: float) -> str:
    """Three significant digits, never an exponent: 0.145, 12.3, 1157."""
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"
