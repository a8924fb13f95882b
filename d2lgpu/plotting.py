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

What it is not: a plotting library. For anything else, use matplotlib directly.

Importing this module is cheap: matplotlib is imported inside each function.
"""

from __future__ import annotations

from ._validate import check_int

__all__ = [
    "plain_log_ticks",
    "plain_number",
    "plot_bars",
    "plot_histories",
    "plot_history",
    "plot_timeline",
    "plot_vs_size",
]

_FIGSIZE = (6.0, 4.0)  # one panel
_FIGSIZE_PAIR = (11.0, 4.0)  # two panels side by side


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


def plot_vs_size(sizes, series, *, xlabel, ylabel, title=None, logx=True, logy=True, ax=None):
    """One line per entry of ``series`` (``{label: values}``) against ``sizes``.

    Every list of values must have one value per size; a value may be
    ``None`` where that variant was not measured (e.g. a GPU curve that starts
    at a larger size than the CPU one). Log axes (the default) need positive
    numbers, and their ticks read as plain numbers (``200``, ``0.05``), not
    ``2 x 10^2``. Returns the Figure.
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
    fig, (ax,) = _new_axes(ax)
    for label, values in series.items():
        ax.plot(sizes, [float("nan") if v is None else v for v in values], marker="o", label=label)
    if logx:
        ax.set_xscale("log")
        if len(sizes) <= 12:  # label the measured sizes themselves
            from matplotlib.ticker import NullLocator

            ax.set_xticks(sizes, labels=[f"{s:g}" for s in sizes])
            ax.xaxis.set_minor_locator(NullLocator())
        else:
            plain_log_ticks(ax.xaxis, sizes)
    if logy:
        ax.set_yscale("log")
        plain_log_ticks(ax.yaxis, [v for vs in series.values() for v in vs if v is not None])
    _style(ax, xlabel=xlabel, ylabel=ylabel, title=title, legend=True)
    return fig


def plain_log_ticks(axis, values) -> None:
    """Label a log ``axis`` with plain numbers (``0.05``, ``200``), enough of them to read.

    Matplotlib's default labels a log axis with powers of ten and, over less
    than a decade, with ``6 x 10^1``-style minor labels. Here ticks sit at
    1, 2 and 5 times powers of ten (every integer multiple over less than a
    decade, only powers of ten over more than four decades), labelled as
    numbers; the other minor ticks stay unlabelled.
    """
    import math

    from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

    values = [v for v in values if v > 0]
    decades = math.log10(max(values) / min(values)) if values else 1.0
    if decades < 1:
        subs = tuple(float(k) for k in range(1, 10))
    elif decades <= 4:
        subs = (1.0, 2.0, 5.0)
    else:
        subs = (1.0,)
    axis.set_major_locator(LogLocator(base=10, subs=subs))
    axis.set_major_formatter(FuncFormatter(lambda v, _pos: f"{v:g}"))
    axis.set_minor_locator(LogLocator(base=10, subs="auto"))
    axis.set_minor_formatter(NullFormatter())


def plot_bars(values, *, ylabel, title=None, notes=None, ax=None):
    """A bar per entry of ``values`` (``{label: number}``), each labelled with its number.

    ``notes`` (``{label: text}``, optional) replaces the number above the bars
    it names, e.g. ``{"bf16": "8.1 ms, 1.5x faster"}``.
    """
    if not isinstance(values, dict) or not values:
        raise TypeError("values must be a non-empty dict {label: number}")
    notes = {} if notes is None else notes
    unknown = [k for k in notes if k not in values]
    if unknown:
        raise ValueError(f"notes names bars that values does not have: {unknown}")
    fig, (ax,) = _new_axes(ax)
    bars = ax.bar(list(values), list(values.values()), color=[f"C{i}" for i in range(len(values))])
    ax.bar_label(
        bars,
        labels=[notes.get(k, plain_number(v)) for k, v in values.items()],
        fontsize="small" if notes else None,
    )
    ax.margins(y=0.15)  # room for the labels above the tallest bar
    _style(ax, xlabel="", ylabel=ylabel, title=title)
    ax.grid(False, axis="x")  # vertical lines between bars add nothing
    return fig


def plain_number(value: float) -> str:
    """Three significant digits, never an exponent: 0.145, 12.3, 1157."""
    return f"{value:.3g}" if abs(value) < 1000 else f"{value:,.0f}"


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
    ax_loss.plot(epochs, history.train_loss, marker="o", label="train loss")
    ax_acc.plot(epochs, history.train_acc, marker="o", label="train acc")
    if history.test_acc:
        ax_acc.plot(epochs, history.test_acc, marker="o", label="test acc")
    _style(ax_loss, xlabel="epoch", ylabel="loss", title="training loss", legend=True)
    _style(ax_acc, xlabel="epoch", ylabel="accuracy", title="accuracy", legend=True)
    fig.suptitle(f"{history.device}, amp {history.amp_dtype}")
    return fig


def plot_histories(histories):
    """Compare runs (``{label: History}``): accuracy per epoch, and seconds per epoch (log scale).

    The accuracy is the test accuracy when every run has one, else the train
    accuracy. Seconds are on a log axis because CPU and GPU runs differ by
    orders of magnitude.
    """
    if not isinstance(histories, dict) or not histories:
        raise TypeError("histories must be a non-empty dict {label: History}")
    for label, history in histories.items():
        _check_history(history, name=f"histories[{label!r}]")
    use_test = all(h.test_acc for h in histories.values())
    fig, (ax_acc, ax_sec) = _new_axes(None, ncols=2)
    for label, h in histories.items():
        ax_acc.plot(_epochs(h), h.test_acc if use_test else h.train_acc, marker="o", label=label)
        ax_sec.plot(_epochs(h), h.epoch_seconds, marker="o", label=label)
    ax_sec.set_yscale("log")
    plain_log_ticks(ax_sec.yaxis, [s for h in histories.values() for s in h.epoch_seconds])
    which = "test" if use_test else "train"
    _style(ax_acc, xlabel="epoch", ylabel=f"{which} accuracy", title="accuracy", legend=True)
    _style(ax_sec, xlabel="epoch", ylabel="seconds per epoch (log)", title="time", legend=True)
    return fig


def plot_timeline(spans, n_stages, *, title=None, ax=None):
    """When each stage was busy: a row per stage, a bar per :class:`~d2lgpu.pipeline.Span`.

    Bars are coloured and labelled by micro-batch (backward spans hatched);
    the x axis is milliseconds from the first span's start. Idle time is the
    white between the bars.
    """
    spans = list(spans) if isinstance(spans, list | tuple) else []
    if not spans or not all(hasattr(s, "micro_batch") for s in spans):
        raise ValueError("spans must be a non-empty list of d2lgpu.pipeline.Span")
    check_int("n_stages", n_stages, minimum=1)
    if max(s.stage for s in spans) >= n_stages:
        raise ValueError(f"n_stages must be an int above every span's stage, got {n_stages!r}")
    fig, (ax,) = _new_axes(ax)
    zero = min(s.start for s in spans)
    for s in spans:
        left, width = (s.start - zero) * 1e3, s.seconds * 1e3
        hatch = "//" if s.phase == "backward" else None
        ax.barh(s.stage, width, left=left, height=0.6, color=f"C{s.micro_batch % 10}", hatch=hatch,
                edgecolor="black", linewidth=0.5)  # fmt: skip
        ax.text(left + width / 2, s.stage, str(s.micro_batch), ha="center", va="center",
                fontsize="small")  # fmt: skip
    ax.set_yticks(range(n_stages), labels=[f"stage {k + 1}" for k in range(n_stages)])
    ax.set_ylim(n_stages - 0.5, -0.5)  # stage 1 on top
    _style(ax, xlabel="milliseconds", ylabel="", title=title)
    ax.grid(False, axis="y")
    return fig
