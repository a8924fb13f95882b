"""The course's few plots, with one consistent look.

What it is for: time (or throughput) against problem size for several
variants (:func:`plot_vs_size`), one number per variant (:func:`plot_bars`),
when each pipeline stage was busy (:func:`plot_timeline`),
and training curves from :func:`d2lgpu.training.train` (:func:`plot_history`
for one run, :func:`plot_histories` to compare runs, e.g. CPU vs GPU).

Each function draws with matplotlib's object-oriented API and returns the
``Figure``. Figures are created with ``pyplot.subplots`` so they show inline in
Jupyter by themselves; end the call with ``;`` or assign the result, or the
notebook shows the returned figure a second time. Pass ``ax=`` to draw into
an axes of your own instead.

Every plot reads at a glance: tick labels are plain numbers (``200``,
``0.05``) and never overprint each other, units sit in the axis labels, a
time axis given in seconds is shown in microseconds or milliseconds when the
numbers are small, series that coincide keep distinct markers and line
styles so both stay visible, and the numbers written above bars stay inside
their axes.

What it is not: a plotting library. For anything else, use matplotlib directly.

How the numbers on the axes are written (the time unit, tick labels without exponents,
as many as fit) is :mod:`d2lgpu._plot_labels`'s; :func:`time_unit`, :func:`plain_tick`,
:func:`plain_number` and :func:`plain_log_ticks` are named here too.

Importing this module is cheap: matplotlib is imported inside each function.
"""

from __future__ import annotations

from ._plot_labels import (
    axes_length_pt,
    is_seconds_label,
    plain_linear,
    plain_log_ticks,
    plain_number,
    plain_tick,
    seconds_label,
    size_ticks,
    time_unit,
)
from ._validate import check_int

__all__ = [
    "plain_log_ticks",
    "plain_number",
    "plain_tick",
    "plot_bars",
    "plot_histories",
    "plot_history",
    "plot_timeline",
    "plot_vs_size",
    "time_unit",
]

_FIGSIZE = (6.0, 4.0)  # one panel
_FIGSIZE_PAIR = (11.0, 4.0)  # two panels side by side
# Series k is drawn with marker k and line style k, so two curves that agree stay distinct.
_MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
_LINESTYLES = ("-", "--", ":", "-.")


def _series_style(k: int) -> dict:
    """Matplotlib keywords for the ``k``-th series: colour, marker and line style all differ,
    and markers after the first are hollow, so a series drawn over another leaves it visible."""
    return {
        "color": f"C{k % 10}",
        "marker": _MARKERS[k % len(_MARKERS)],
        "linestyle": _LINESTYLES[k % len(_LINESTYLES)],
        "markersize": max(4.0, 7.0 - k),
        "markerfacecolor": f"C{k % 10}" if k == 0 else "none",
    }


def _new_axes(ax, ncols=1):
    """``(fig, axes)``: a new figure with ``ncols`` panels, or ``ax``'s figure and ``[ax]``."""
    if ax is not None:
        return ax.figure, [ax]
    import matplotlib.pyplot as plt

    figsize = _FIGSIZE if ncols == 1 else _FIGSIZE_PAIR
    fig, axes = plt.subplots(1, ncols, figsize=figsize, layout="constrained", squeeze=False)
    return fig, list(axes[0])


def _style(ax, *, xlabel, ylabel, title=None, legend=False):
    if xlabel == "epoch":  # whole epochs only: no tick at epoch 1.5
        from matplotlib.ticker import MaxNLocator

        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlabel(xlabel)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    ax.grid(True, which="major", alpha=0.4)
    if legend:
        ax.legend()


def plot_vs_size(
    sizes, series, *, xlabel, ylabel, title=None, logx=True, logy=True, ax=None, seconds=None
):
    """One line per entry of ``series`` (``{label: values}``) against ``sizes``.

    Every list of values must have one value per size; a value may be
    ``None`` where that variant was not measured (e.g. a GPU curve that starts
    at a larger size than the CPU one). Log axes (the default) need positive
    numbers, and their ticks read as plain numbers (``200``, ``0.05``), not
    ``2 x 10^2``; the measured sizes are the x ticks, as many as fit side by side.

    Values in seconds (``seconds=True``, or by default a ``ylabel`` whose
    first word is ``seconds``) are drawn in microseconds, milliseconds or
    seconds, whichever the largest value reads best in, and the label says
    which: ``"seconds per call"`` becomes ``"microseconds per call"``.
    Returns the Figure.
    """
    sizes = list(sizes)
    if not sizes:
        raise ValueError("sizes must not be empty")
    if not isinstance(series, dict) or not series:
        raise TypeError("series must be a non-empty dict {label: list of values}")
    for label, values in series.items():
        if len(values) != len(sizes):
            raise ValueError(
                f"series[{label!r}] has {len(values)} values but sizes has {len(sizes)}"
            )
        if all(v is None for v in values):
            raise ValueError(f"series[{label!r}] has no values, only None")
        if logy and any(v is not None and v <= 0 for v in values):
            raise ValueError(f"logy=True needs positive values; series[{label!r}] has some <= 0")
    if logx and any(s <= 0 for s in sizes):
        raise ValueError("logx=True needs positive sizes")
    if seconds is None:
        seconds = is_seconds_label(ylabel)
    factor = 1.0
    if seconds:
        unit, factor = time_unit(v for vs in series.values() for v in vs)
        ylabel = seconds_label(ylabel, unit)
    fig, (ax,) = _new_axes(ax)
    for k, (label, values) in enumerate(series.items()):
        ys = [float("nan") if v is None else v * factor for v in values]
        ax.plot(sizes, ys, label=label, **_series_style(k))
    if logx:
        ax.set_xscale("log")
        if len(sizes) <= 12:  # label the measured sizes themselves, those that fit
            size_ticks(ax, sizes)
        else:
            plain_log_ticks(ax.xaxis, sizes)
    else:
        plain_linear(ax.xaxis)
    values = [v * factor for vs in series.values() for v in vs if v is not None]
    if logy:
        ax.set_yscale("log")
        plain_log_ticks(ax.yaxis, values)
    else:
        plain_linear(ax.yaxis)
    _style(ax, xlabel=xlabel, ylabel=ylabel, title=title, legend=True)
    return fig


def plot_bars(values, *, ylabel, title=None, notes=None, ax=None):
    """A bar per entry of ``values`` (``{label: number}``), each labelled with its number.

    ``notes`` (``{label: text}``, optional) replaces the number above the bars
    it names, e.g. ``{"bf16": "8.1 ms, 1.5x faster"}``. The y axis leaves room
    above the tallest bar for its label, however many lines it has, so the
    labels stay inside the axes, clear of the title.
    """
    if not isinstance(values, dict) or not values:
        raise TypeError("values must be a non-empty dict {label: number}")
    notes = {} if notes is None else notes
    unknown = [k for k in notes if k not in values]
    if unknown:
        raise ValueError(f"notes names bars that values does not have: {unknown}")
    fig, (ax,) = _new_axes(ax)
    bars = ax.bar(list(values), list(values.values()), color=[f"C{i}" for i in range(len(values))])
    texts = [notes.get(k, plain_number(v)) for k, v in values.items()]
    labels = ax.bar_label(bars, labels=texts, fontsize="small" if notes else None)
    top, bottom = max(values.values()), min(0.0, *values.values())
    if top > 0:
        # Room above the tallest bar for its label: lines x line height, over the axes' height.
        lines = max(t.count("\n") + 1 for t in texts)
        room_pt = lines * 1.3 * labels[0].get_size() + 8
        share = min(0.6, room_pt / axes_length_pt(ax, "y"))
        ax.set_ylim(bottom, max(top * 1.15, top + (top - bottom) * share / (1 - share)))
    else:
        ax.margins(y=0.15)
    plain_linear(ax.yaxis)
    _style(ax, xlabel="", ylabel=ylabel, title=title)
    ax.grid(False, axis="x")  # vertical lines between bars add nothing
    return fig


def _epochs(history):
    return range(1, len(history.train_loss) + 1)


def _check_history(history, name="history"):
    if not all(hasattr(history, a) for a in ("train_loss", "train_acc", "test_acc")):
        raise TypeError(f"{name} must be a d2lgpu.training.History, got {type(history).__name__}")
    if not history.train_loss:
        raise ValueError(f"{name} has no epochs to plot")


def plot_history(history):
    """Two panels for one :class:`~d2lgpu.training.History`: loss, and accuracies, per epoch."""
    _check_history(history)
    fig, (ax_loss, ax_acc) = _new_axes(None, ncols=2)
    epochs = _epochs(history)
    ax_loss.plot(epochs, history.train_loss, label="train loss", **_series_style(0))
    ax_acc.plot(epochs, history.train_acc, label="train acc", **_series_style(0))
    if history.test_acc:
        ax_acc.plot(epochs, history.test_acc, label="test acc", **_series_style(1))
    _style(ax_loss, xlabel="epoch", ylabel="loss", title="training loss", legend=True)
    _style(ax_acc, xlabel="epoch", ylabel="accuracy", title="accuracy", legend=True)
    fig.suptitle(f"{history.device}, amp {history.amp_dtype}")
    return fig


def plot_histories(histories):
    """Compare runs (``{label: History}``): accuracy per epoch, and time per epoch.

    The accuracy is the test accuracy when every run has one, else the train
    accuracy. Times are on a log axis when the runs differ by more than 10x
    (CPU and GPU runs differ by orders of magnitude); otherwise on a linear
    axis from 0, so that two runs on one device, whose difference is noise,
    do not look far apart. The time unit (milliseconds or seconds) fits the
    numbers. Each run keeps its own marker and line style, so runs that agree
    stay visible.
    """
    if not isinstance(histories, dict) or not histories:
        raise TypeError("histories must be a non-empty dict {label: History}")
    for label, history in histories.items():
        _check_history(history, name=f"histories[{label!r}]")
    use_test = all(h.test_acc for h in histories.values())
    fig, (ax_acc, ax_sec) = _new_axes(None, ncols=2)
    all_seconds = [s for h in histories.values() for s in h.epoch_seconds]
    unit, factor = time_unit(all_seconds)
    positive = [s for s in all_seconds if s > 0]
    logy = bool(positive) and len(positive) == len(all_seconds)
    logy = logy and max(positive) / min(positive) > 10
    for k, (label, h) in enumerate(histories.items()):
        style = _series_style(k)
        ax_acc.plot(_epochs(h), h.test_acc if use_test else h.train_acc, label=label, **style)
        ax_sec.plot(_epochs(h), [s * factor for s in h.epoch_seconds], label=label, **style)
    title = "time"
    if logy:
        ax_sec.set_yscale("log")
        plain_log_ticks(ax_sec.yaxis, [s * factor for s in all_seconds])
        ylabel = f"{unit} per epoch (log)"
    else:
        ax_sec.set_ylim(0, 1.15 * max([s * factor for s in all_seconds] + [1e-9]))
        plain_linear(ax_sec.yaxis)
        ylabel = f"{unit} per epoch"
        devices = {h.device for h in histories.values()}
        if len(histories) > 1 and len(devices) == 1 and all(devices):
            title = f"time (every run on {devices.pop()})"
    which = "test" if use_test else "train"
    _style(ax_acc, xlabel="epoch", ylabel=f"{which} accuracy", title="accuracy", legend=True)
    _style(ax_sec, xlabel="epoch", ylabel=ylabel, title=title, legend=True)
    return fig


def plot_timeline(spans, n_stages, *, title=None, ax=None):
    """When each stage was busy: a row per stage, a bar per :class:`~d2lgpu.pipeline.Span`.

    Bars are coloured and labelled by micro-batch (backward spans hatched);
    the x axis is time from the first span's start, in milliseconds (or
    microseconds or seconds, whichever fits). Idle time is the white between the bars.
    """
    spans = list(spans) if isinstance(spans, list | tuple) else []
    if not spans or not all(hasattr(s, "micro_batch") for s in spans):
        raise ValueError("spans must be a non-empty list of d2lgpu.pipeline.Span")
    check_int("n_stages", n_stages, minimum=1)
    if max(s.stage for s in spans) >= n_stages:
        raise ValueError(f"n_stages must be an int above every span's stage, got {n_stages!r}")
    fig, (ax,) = _new_axes(ax)
    zero = min(s.start for s in spans)
    unit, factor = time_unit([max(s.start + s.seconds for s in spans) - zero])
    for s in spans:
        left, width = (s.start - zero) * factor, s.seconds * factor
        hatch = "//" if s.phase == "backward" else None
        ax.barh(s.stage, width, left=left, height=0.6, color=f"C{s.micro_batch % 10}", hatch=hatch,
                edgecolor="black", linewidth=0.5)  # fmt: skip
        ax.text(left + width / 2, s.stage, str(s.micro_batch), ha="center", va="center",
                fontsize="small")  # fmt: skip
    ax.set_yticks(range(n_stages), labels=[f"stage {k + 1}" for k in range(n_stages)])
    ax.set_ylim(n_stages - 0.5, -0.5)  # stage 1 on top
    plain_linear(ax.xaxis)
    _style(ax, xlabel=unit, ylabel="", title=title)
    ax.grid(False, axis="y")
    return fig
