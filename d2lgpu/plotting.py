"""The course's few plots, with one consistent look.

What it is for: time (or throughput) against problem size for several
variants (:func:`plot_vs_size`), one number per variant (:func:`plot_bars`),
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

__all__ = ["plot_bars", "plot_histories", "plot_history", "plot_vs_size"]

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

    Every list of values must have one value per size. Log axes (the default)
    need positive numbers. Returns the Figure.
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
        if logy and any(v <= 0 for v in values):
            raise ValueError(f"logy=True needs positive values; series[{label!r}] has some <= 0")
    if logx and any(s <= 0 for s in sizes):
        raise ValueError("logx=True needs positive sizes")
    fig, (ax,) = _new_axes(ax)
    for label, values in series.items():
        ax.plot(sizes, values, marker="o", label=label)
    if logx:
        from matplotlib.ticker import NullLocator

        ax.set_xscale("log")
        if len(sizes) <= 12:  # label the measured sizes themselves, not "2 x 10^2" decades
            ax.set_xticks(sizes, labels=[f"{s:g}" for s in sizes])
            ax.xaxis.set_minor_locator(NullLocator())
    if logy:
        ax.set_yscale("log")
    _style(ax, xlabel=xlabel, ylabel=ylabel, title=title, legend=True)
    return fig


def plot_bars(values, *, ylabel, title=None, ax=None):
    """A bar per entry of ``values`` (``{label: number}``), each labelled with its number."""
    if not isinstance(values, dict) or not values:
        raise TypeError("values must be a non-empty dict {label: number}")
    fig, (ax,) = _new_axes(ax)
    bars = ax.bar(list(values), list(values.values()), color=[f"C{i}" for i in range(len(values))])
    ax.bar_label(bars, fmt="%.3g")
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
    which = "test" if use_test else "train"
    _style(ax_acc, xlabel="epoch", ylabel=f"{which} accuracy", title="accuracy", legend=True)
    _style(ax_sec, xlabel="epoch", ylabel="seconds per epoch (log)", title="time", legend=True)
    return fig
