"""d2lgpu.plotting: each function returns a Figure with labelled axes, and rejects bad input."""

import pytest

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
    assert (ax.get_xlabel(), ax.get_ylabel()) == ("matrix size n", "seconds")
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
