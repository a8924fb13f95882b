"""d2lgpu.plotting: each function returns a Figure with labelled axes, and rejects bad input."""

import pytest
from plot_helpers import assert_readable, tick_label_overlaps

from d2lgpu import plotting
from d2lgpu.training import History


@pytest.fixture(autouse=True)
def agg_backend():
    import matplotlib

    matplotlib.use("Agg")  # no display on CI
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def history(acc, seconds, *, test=True, device="cpu"):
    n = len(acc)
    return History(
        train_loss=[2.0 / (i + 1) for i in range(n)],
        train_acc=list(acc),
        test_acc=list(acc) if test else [],
        epoch_seconds=list(seconds),
        device=device,
        amp_dtype="none",
    )


def test_plot_vs_size():
    from matplotlib.figure import Figure

    fig = plotting.plot_vs_size(
        [64, 128, 256],
        {"cpu": [1e-4, 8e-4, 6e-3], "gpu": [1e-5, 2e-5, 8e-5]},
        xlabel="matrix size n",
        ylabel="seconds",
        title="matmul",
    )
    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    # Seconds up to 6e-3 read best as milliseconds; the label says so.
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("matrix size n", "milliseconds")
    assert list(ax.get_lines()[0].get_ydata()) == pytest.approx([0.1, 0.8, 6.0])
    assert ax.get_title() == "matmul"
    assert (ax.get_xscale(), ax.get_yscale()) == ("log", "log")
    assert [line.get_label() for line in ax.get_lines()] == ["cpu", "gpu"]
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["cpu", "gpu"]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["64", "128", "256"]


def test_plot_vs_size_into_a_given_axes_with_linear_scales():
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2)
    out = plotting.plot_vs_size(
        [1, 2], {"a": [0.0, 1.0]}, xlabel="x", ylabel="y", logx=False, logy=False, ax=right
    )
    assert out is fig
    assert len(right.get_lines()) == 1 and len(left.get_lines()) == 0
    assert (right.get_xscale(), right.get_yscale()) == ("linear", "linear")


def test_plot_vs_size_rejects_bad_input():
    with pytest.raises(ValueError, match=r"series\['gpu'\] has 1 values but sizes has 2"):
        plotting.plot_vs_size([1, 2], {"gpu": [1.0]}, xlabel="x", ylabel="y")
    with pytest.raises(ValueError, match="logy=True needs positive values"):
        plotting.plot_vs_size([1, 2], {"gpu": [0.0, 1.0]}, xlabel="x", ylabel="y")
    with pytest.raises(ValueError, match="logx=True needs positive sizes"):
        plotting.plot_vs_size([0, 2], {"gpu": [1.0, 1.0]}, xlabel="x", ylabel="y")
    with pytest.raises(TypeError, match="series must be a non-empty dict"):
        plotting.plot_vs_size([1], [[1.0]], xlabel="x", ylabel="y")


def test_plot_bars():
    fig = plotting.plot_bars({"fp32": 1.0, "bf16": 2.3}, ylabel="speed-up", title="AMP")
    (ax,) = fig.axes
    assert ax.get_ylabel() == "speed-up" and ax.get_title() == "AMP"
    assert [p.get_height() for p in ax.patches] == [1.0, 2.3]
    assert [t.get_text() for t in ax.get_xticklabels()] == ["fp32", "bf16"]
    assert [t.get_text() for t in ax.texts] == ["1", "2.3"]  # the value on each bar
    with pytest.raises(TypeError, match="values must be a non-empty dict"):
        plotting.plot_bars({}, ylabel="s")


def test_plot_history():
    fig = plotting.plot_history(history([0.5, 0.7, 0.8], [3.0, 1.0, 1.0], device="cuda:0"))
    ax_loss, ax_acc = fig.axes
    assert (ax_loss.get_xlabel(), ax_loss.get_ylabel()) == ("epoch", "loss")
    assert (ax_acc.get_xlabel(), ax_acc.get_ylabel()) == ("epoch", "accuracy")
    assert [line.get_label() for line in ax_acc.get_lines()] == ["train acc", "test acc"]
    assert list(ax_loss.get_lines()[0].get_xdata()) == [1, 2, 3]
    assert "cuda:0" in fig.get_suptitle()


def test_plot_histories_compares_runs():
    runs = {"cpu": history([0.5, 0.7], [20.0, 19.0]), "gpu": history([0.5, 0.72], [1.2, 0.3])}
    fig = plotting.plot_histories(runs)
    ax_acc, ax_sec = fig.axes
    assert ax_acc.get_ylabel() == "test accuracy" and ax_acc.get_xlabel() == "epoch"
    assert ax_sec.get_ylabel().startswith("seconds per epoch") and ax_sec.get_yscale() == "log"
    assert [line.get_label() for line in ax_sec.get_lines()] == ["cpu", "gpu"]
    assert list(ax_sec.get_lines()[1].get_ydata()) == [1.2, 0.3]
    # One run without a test set: compare train accuracy instead, and say so.
    runs["gpu"] = history([0.5, 0.72], [1.2, 0.3], test=False)
    assert plotting.plot_histories(runs).axes[0].get_ylabel() == "train accuracy"


def test_history_plots_reject_bad_input():
    with pytest.raises(TypeError, match="history must be a d2lgpu.training.History"):
        plotting.plot_history({"train_loss": [1.0]})
    with pytest.raises(ValueError, match="history has no epochs to plot"):
        plotting.plot_history(History())
    with pytest.raises(ValueError, match=r"histories\['gpu'\] has no epochs"):
        plotting.plot_histories({"gpu": History()})
    with pytest.raises(TypeError, match="histories must be a non-empty dict"):
        plotting.plot_histories([history([0.5], [1.0])])


def test_plot_vs_size_skips_sizes_a_series_was_not_measured_at():
    fig = plotting.plot_vs_size(
        [64, 128, 256, 512], {"cpu": [1.0, 2.0, 4.0, None], "gpu": [None, 0.5, 0.6, 0.7]},
        xlabel="n", ylabel="ms",
    )  # fmt: skip
    cpu, gpu = fig.axes[0].get_lines()
    assert list(gpu.get_xdata()) == [64, 128, 256, 512]
    assert str(gpu.get_ydata()[0]) == "nan" and list(gpu.get_ydata()[1:]) == [0.5, 0.6, 0.7]
    with pytest.raises(ValueError, match=r"series\['gpu'\] has no values, only None"):
        plotting.plot_vs_size([1, 2], {"gpu": [None, None]}, xlabel="x", ylabel="y")


@pytest.mark.parametrize(
    "values, expected",
    [
        ([55.0, 62.0, 70.0], {"60", "70"}),  # under a decade: matplotlib would write 6x10^1
        ([0.02, 0.3, 4.0], {"0.02", "0.05", "0.1", "0.2", "0.5", "1", "2"}),  # 1-2-5 steps
        ([1e-4, 1.0, 1e3], {"0.001", "0.01", "0.1", "1", "10", "100"}),  # only decades
    ],
)
def test_log_axes_read_as_plain_numbers(values, expected):
    fig = plotting.plot_vs_size([1, 2, 3], {"a": values}, xlabel="x", ylabel="y", logx=False)
    fig.canvas.draw()
    shown = {t.get_text() for t in fig.axes[0].get_yticklabels()} - {""}
    assert expected <= shown, shown
    assert all("10^" not in t and "times" not in t for t in shown), shown


def test_plot_bars_notes_replace_the_numbers_they_name():
    fig = plotting.plot_bars(
        {"fp32": 10.0, "bf16": 4.0}, ylabel="ms", notes={"bf16": "4 ms\n2.5x faster"}
    )
    assert [t.get_text() for t in fig.axes[0].texts] == ["10", "4 ms\n2.5x faster"]
    fig = plotting.plot_bars({"fp32": 1157.3, "bf16": 1033.0}, ylabel="MiB")
    assert [t.get_text() for t in fig.axes[0].texts] == ["1,157", "1,033"]  # not 1.16e+03
    with pytest.raises(ValueError, match=r"notes names bars that values does not have: \['fp16'\]"):
        plotting.plot_bars({"fp32": 1.0}, ylabel="ms", notes={"fp16": "x"})


def test_plot_timeline_draws_a_row_per_stage_and_a_bar_per_span():
    from d2lgpu.pipeline import Span

    spans = [Span(0, 0, 0.0, 0.01), Span(0, 1, 0.01, 0.02), Span(1, 0, 0.012, 0.02, "backward")]
    fig = plotting.plot_timeline(spans, 2, title="two stages")
    ax = fig.axes[0]
    assert [t.get_text() for t in ax.get_yticklabels()] == ["stage 1", "stage 2"]
    assert len(ax.patches) == 3 and ax.get_xlabel() == "milliseconds"
    assert ax.patches[2].get_hatch() == "//"
    assert ax.get_title() == "two stages"


@pytest.mark.parametrize(
    "spans, n, message",
    [([], 2, "non-empty list"), ([(0, 0, 0.0, 1.0)], 2, "non-empty list"), (None, 2, "list of")],
)
def test_plot_timeline_rejects_bad_spans(spans, n, message):
    with pytest.raises(ValueError, match=message):
        plotting.plot_timeline(spans, n)


def test_plot_timeline_rejects_too_few_stages():
    from d2lgpu.pipeline import Span

    with pytest.raises(ValueError, match="n_stages must be an int above every span's stage"):
        plotting.plot_timeline([Span(2, 0, 0.0, 1.0)], 2)


# Awkward data for every public plot function: sizes that make matplotlib label minor log
# ticks, tiny seconds, a huge range, two identical series, a single point.
SIZES_16_512 = [16, 32, 64, 128, 256, 512]
DENSE_SIZES = [16, 20, 24, 28, 32, 40, 48, 56, 64, 96, 128, 192]
AWKWARD_VS_SIZE = {
    "sizes 16..512, ms": (SIZES_16_512, {"CPU": [0.005, 0.0075, 0.017, 0.1, 0.66, 3.1]}, "ms"),
    "dense sizes": (DENSE_SIZES, {"a": [1.0 + n for n in DENSE_SIZES]}, "ms"),
    "tiny seconds": ([1, 10, 100, 1000], {"loop": [3e-5, 5e-5, 2e-4, 2e-3],
                                          "batched": [3e-5, 3.1e-5, 3.2e-5, 4e-5]}, "seconds"),
    "huge range": ([2**k for k in range(4, 15)], {"a": [10.0**k for k in range(-6, 5)]}, "s"),
    "under a decade": (SIZES_16_512, {"a": [47.7, 47.9, 48.0, 48.0, 48.1, 48.0]}, "ms"),
    "identical": (SIZES_16_512, {"a": [1, 2, 3, 4, 5, 6], "b": [1, 2, 3, 4, 5, 6]}, "ms"),
    "one point": ([64], {"a": [0.5]}, "ms"),
    "many sizes": (list(range(16, 513, 16)), {"a": [3e-5 * i for i in range(1, 33)]}, "s"),
}  # fmt: skip


@pytest.mark.parametrize("case", list(AWKWARD_VS_SIZE))
@pytest.mark.parametrize("panel", ["own figure", "half of a pair"])
def test_plot_vs_size_reads_with_awkward_data(case, panel):
    import matplotlib.pyplot as plt

    sizes, series, ylabel = AWKWARD_VS_SIZE[case]
    ax = (
        plt.subplots(1, 2, figsize=(11, 4), layout="constrained")[1][0]
        if panel != "own figure"
        else None
    )
    fig = plotting.plot_vs_size(sizes, series, xlabel="n", ylabel=ylabel, title=case, ax=ax)
    assert_readable(fig)
    for ax in fig.axes[:1]:
        for t in ax.get_xticklabels() + ax.get_yticklabels():
            assert "e-" not in t.get_text() and "times" not in t.get_text(), t.get_text()


def test_plot_vs_size_shows_seconds_in_a_unit_that_reads_at_a_glance():
    fig = plotting.plot_vs_size(
        [1, 10], {"a": [3e-5, 8e-5]}, xlabel="n", ylabel="seconds per call (fastest sample)"
    )
    ax = fig.axes[0]
    assert ax.get_ylabel() == "microseconds per call (fastest sample)"
    assert list(ax.get_lines()[0].get_ydata()) == pytest.approx([30, 80])
    fig = plotting.plot_vs_size(
        [1, 10], {"a": [3e-5, 8e-5]}, xlabel="n", ylabel="time", seconds=True
    )
    assert fig.axes[0].get_ylabel() == "time (microseconds)"
    assert plotting.time_unit([0.38]) == ("milliseconds", 1e3)
    assert plotting.time_unit([12.0]) == ("seconds", 1.0)


def test_identical_series_stay_distinguishable():
    fig = plotting.plot_vs_size(
        [1, 2], {"a": [1, 2], "b": [1, 2], "c": [1, 2]}, xlabel="n", ylabel="ms"
    )
    lines = fig.axes[0].get_lines()
    assert len({(line.get_marker(), line.get_linestyle()) for line in lines}) == 3
    assert lines[1].get_markerfacecolor() == "none"  # hollow: the one below shows through


def test_tick_label_check_catches_matplotlibs_minor_log_labels():
    """The check itself: matplotlib's own log axis over 16..512 overprints its labels."""
    import matplotlib.pyplot as plt

    fig, (ax, _) = plt.subplots(1, 2, figsize=(11, 4), layout="constrained")
    ax.plot(SIZES_16_512, [1, 2, 3, 4, 5, 6])
    ax.set_xscale("log")
    assert tick_label_overlaps(fig)


@pytest.mark.parametrize(
    "notes",
    [None, {"bf16": "381 ms\nfp32 is 1.51x\nfaster than bf16"}, {"b": "1\n2\n3\n4\n5"}],
)
@pytest.mark.parametrize("values", [{"fp32": 252.0, "bf16": 381.0}, {"a": 1e-5, "b": 3e-5}])
def test_plot_bars_keeps_its_labels_inside_the_axes_and_off_the_title(values, notes):
    notes = {k: v for k, v in (notes or {}).items() if k in values} or None
    fig = plotting.plot_bars(values, ylabel="ms per step", title="time per step", notes=notes)
    assert_readable(fig)


def test_plot_bars_with_one_bar_reads():
    assert_readable(plotting.plot_bars({"fp32": 7.0}, ylabel="ms", title="one"))


@pytest.mark.parametrize(
    "seconds",
    [[[0.282, 0.29], [0.294, 0.283]], [[20.0, 19.0], [1.2, 0.3]], [[3e-3], [3e-3]]],
    ids=["same device", "cpu vs gpu", "one epoch, identical"],
)
def test_history_plots_read_with_awkward_data(seconds):
    a, b = seconds
    runs = {"cpu": history([0.5] * len(a), a), "try_gpu() = cpu": history([0.5] * len(b), b)}
    assert_readable(plotting.plot_histories(runs))
    assert_readable(plotting.plot_history(runs["cpu"]))


def test_two_runs_on_one_device_are_drawn_from_zero_not_as_a_log_crossing():
    runs = {"cpu": history([0.5, 0.6], [0.282, 0.294]), "again": history([0.5, 0.6], [0.29, 0.283])}
    ax_sec = plotting.plot_histories(runs).axes[1]
    assert ax_sec.get_yscale() == "linear" and ax_sec.get_ylim()[0] == 0
    assert ax_sec.get_ylabel() == "milliseconds per epoch"
    assert ax_sec.get_title() == "time (every run on cpu)"
    lines = ax_sec.get_lines()
    assert lines[0].get_marker() != lines[1].get_marker()


def test_plot_timeline_reads_with_tiny_and_single_spans():
    from d2lgpu.pipeline import Span

    fig = plotting.plot_timeline([Span(0, 0, 0.0, 3e-5)], 1, title="one span")
    assert fig.axes[0].get_xlabel() == "microseconds"
    assert_readable(fig)
    spans = [Span(k % 2, k, k * 1e-3, (k + 1) * 1e-3) for k in range(16)]
    assert_readable(plotting.plot_timeline(spans, 2, title="sixteen spans"))
