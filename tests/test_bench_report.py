"""d2lgpu.bench_report: plots and summary a learner reads at a glance, from given results."""

import re

import pytest
from plot_helpers import assert_readable

from d2lgpu import bench_report
from d2lgpu.bench_report import crossover, faster, summary_markdown


@pytest.fixture(autouse=True)
def agg_backend():
    import matplotlib

    matplotlib.use("Agg")  # no display on CI
    import matplotlib.pyplot as plt

    yield
    plt.close("all")


def curve(sizes, seconds_of):
    return [{"n": n, "seconds": seconds_of(n), "tflops": 2 * n**3 / seconds_of(n) / 1e12} for n in sizes]  # fmt: skip


def gpu_results():
    """Results shaped like a full CUDA run (numbers invented, relations realistic)."""
    sizes = [256, 512, 1024, 2048, 4096, 8192]
    matmul = {dt: curve(sizes, lambda n, k=k: 2 * n**3 / (k * 1e12) + 5e-5) for dt, k in
              (("fp32", 50), ("tf32", 300), ("bf16", 600), ("fp16", 620))}  # fmt: skip
    return {
        "device": "cuda:0",
        "device_name": "NVIDIA H100 80GB HBM3",
        "cpu_name": "Some CPU",
        "measured_at": "2026-05-01T14:02+02:00",
        "torch": "2.14.1",
        "cuda": "13.0",
        "env": {"gpus": [{"name": "NVIDIA H100 80GB HBM3"}]},
        "quick": False,
        "datasheet": {"tflops": {"fp32": 67, "bf16": 989}, "bandwidth_tbs": 3.35},
        "matmul": matmul,
        # The CPU beats the GPU at 64-256 (launch cost), loses from 512 on.
        "cpu_matmul": curve([64, 128, 256, 512, 1024, 2048], lambda n: 2 * n**3 / 1e12 + 1e-6),
        "measured_peak_tflops": {dt: max(p["tflops"] for p in c) for dt, c in matmul.items()},
        "copy": {"mib": 1024, "seconds": 1e-3, "gb_per_s": 2800.0},
        "host_to_device": {"mib": 512, "pageable_gb_per_s": 12.0, "pinned_gb_per_s": 25.0},
        "launch": {"kernels": 200, "eager_us_per_kernel": 5.0, "graph_us_per_kernel": 1.0},
        "frobenius": {"steps": 1000, "per_step_seconds": 0.05, "at_end_seconds": 0.02},
        "amp": {
            "width": 4096,
            "batch": 512,
            "steps": [
                {"precision": p, "seconds": s, "peak_bytes": b * 2**20}
                for p, s, b in (
                    ("fp32", 0.01, 900),
                    ("tf32", 0.004, 900),
                    ("bf16", 0.003, 700),
                    ("fp16", 0.012, 720),
                )  # fp16 slower: worded from the faster side
            ],  # fmt: skip
        },
        "do_bench": [
            {
                "n": 8192,
                "ours_s": 1e-3,
                "do_bench_s": 0.99e-3,
                "ratio": 1.0101,
                "operands_exceed_l2": True,
            }
        ],  # fmt: skip
    }


def cpu_results(machine_has_gpu=False):
    sizes = [64, 128, 256]
    mm = curve(sizes, lambda n: 2 * n**3 / 1e11)
    return {
        "device": "cpu",
        "device_name": "AMD EPYC",
        "cpu_name": "AMD EPYC",
        "measured_at": "2026-05-01T09:30+00:00",
        "torch": "2.14.1",
        "cuda": None,
        "env": {"gpus": [{"name": "GPU"}] if machine_has_gpu else []},
        "quick": True,
        "datasheet": None,
        "matmul": {"fp32": mm},
        "cpu_matmul": mm,
        "measured_peak_tflops": {"fp32": max(p["tflops"] for p in mm)},
        "copy": {"mib": 16, "seconds": 1e-3, "gb_per_s": 4.0},
        "launch": {"kernels": 200, "eager_us_per_kernel": 5.0},
        "frobenius": {"steps": 200, "per_step_seconds": 0.03, "at_end_seconds": 0.04},
        "amp": {
            "width": 128,
            "batch": 32,
            "steps": [
                {"precision": "fp32", "seconds": 7e-4, "peak_bytes": None},
                {"precision": "bf16", "seconds": 2e-3, "peak_bytes": None},
            ],
        },  # fmt: skip
    }


def tick_texts(fig):
    fig.canvas.draw()  # tick labels are computed at draw time
    return [t.get_text() for ax in fig.axes for t in ax.get_xticklabels() + ax.get_yticklabels()]


def assert_plain_ticks(fig):
    texts = [t for t in tick_texts(fig) if t]
    assert texts, "no tick labels at all"
    bad = [t for t in texts if not re.fullmatch(r"[0-9]+(\.[0-9]+)?|fp32|tf32|bf16|fp16", t)]
    assert not bad, f"tick labels that are not plain numbers (e.g. 6x10^1): {bad}"


def test_faster_puts_the_faster_first_so_the_ratio_is_at_least_one():
    assert faster("bf16", 1.0, "fp32", 2.0) == "bf16 is 2x faster than fp32"
    assert faster("bf16", 3.0, "fp32", 2.0) == "fp32 is 1.5x faster than bf16"
    with pytest.raises(ValueError, match="time of 'fp32' must be > 0"):
        faster("bf16", 1.0, "fp32", 0.0)


def test_crossover_is_the_size_from_which_the_gpu_stays_faster():
    point = crossover(gpu_results())
    assert point["from_n"] == 512 and point["largest_common_n"] == 2048
    assert point["gpu_s"] < point["cpu_s"]
    results = gpu_results()
    results["matmul"]["fp32"] = curve([256, 512, 1024, 2048], lambda n: 1.0)  # never faster
    assert crossover(results)["from_n"] is None
    assert crossover(cpu_results()) is None


def test_crossover_plot_draws_cpu_and_gpu_and_says_where_the_gpu_wins():
    fig = bench_report.plot_crossover(gpu_results())
    (ax,) = fig.axes
    assert [line.get_label() for line in ax.get_lines()] == ["CPU fp32", "GPU (cuda) fp32"]
    title = ax.get_title()
    assert "CPU vs GPU" in title and "faster from n = 512" in title
    assert "NVIDIA H100 80GB HBM3" in title and "2026-05-01 14:02" in title  # whose, when
    assert ax.get_ylabel().startswith("milliseconds") and ax.get_xlabel().startswith("matrix size")
    assert [t.get_text() for t in ax.get_xticklabels()] == [
        "64", "128", "256", "512", "1024", "2048", "4096", "8192"
    ]  # fmt: skip
    assert_plain_ticks(fig)


@pytest.mark.parametrize(
    "has_gpu, reason",
    [(False, "this machine has no GPU"), (True, "ran on the CPU although this machine has a GPU")],
)
def test_cpu_only_crossover_says_why_there_is_one_curve(has_gpu, reason):
    fig = bench_report.plot_crossover(cpu_results(machine_has_gpu=has_gpu))
    (ax,) = fig.axes
    assert [line.get_label() for line in ax.get_lines()] == ["CPU fp32"]
    assert "CPU only" in ax.get_title() and reason in ax.get_title()
    assert "CPU vs GPU" not in ax.get_title()
    assert "quick sizes" in ax.get_title() and "2026-05-01 09:30" in ax.get_title()
    assert_plain_ticks(fig)


def test_throughput_plot_has_one_line_per_dtype_and_the_datasheet_peak():
    fig = bench_report.plot_matmul_tflops(gpu_results())
    (ax,) = fig.axes
    labels = [line.get_label() for line in ax.get_lines()]
    assert labels == ["fp32", "tf32", "bf16", "fp16", "datasheet bf16 peak, 989 TFLOP/s"]
    assert ax.get_ylim()[1] > 989  # the peak line is inside the frame
    assert ax.get_ylabel().startswith("TFLOP/s") and "NVIDIA H100" in ax.get_title()
    assert_plain_ticks(fig)


def test_amp_plot_words_every_ratio_as_faster_and_shows_memory_where_reported():
    fig = bench_report.plot_amp(gpu_results())
    time_ax, memory_ax = fig.axes
    notes = [t.get_text().replace("\n", " ") for t in time_ax.texts]
    assert notes == [
        "10 ms",
        "4 ms tf32 is 2.5x faster than fp32",
        "3 ms bf16 is 3.33x faster than fp32",
        "12 ms fp32 is 1.2x faster than fp16",
    ]
    assert memory_ax.get_title() == "peak memory"
    assert [p.get_height() for p in memory_ax.patches] == [900, 900, 700, 720]
    assert "NVIDIA H100" in fig.get_suptitle() and "2026-05-01" in fig.get_suptitle()

    fig = bench_report.plot_amp(cpu_results())
    (time_ax,) = fig.axes  # no empty memory panel
    assert time_ax.get_title() == "time per step (no memory panel: PyTorch counts no memory on cpu)"


def test_summary_names_the_machine_and_words_every_comparison_as_x_faster():
    text = summary_markdown(gpu_results())
    assert text.startswith("# Bench results: NVIDIA H100 80GB HBM3\n")
    assert "2026-05-01 14:02" in text and "CPU Some CPU" in text
    assert "Reference" not in text and "slowdown" not in text and "the time" not in text
    rows = {r.split(" | ")[0].strip("| "): r for r in text.splitlines() if r.startswith("| ")}
    assert (
        "GPU faster from n = 512; at n = 2048 the GPU is" in rows["CPU vs GPU matrix product, fp32"]
    )
    for row, expected in [
        ("host-to-device (512 MiB), pageable / pinned", "pinned is 2.08x faster than pageable"),
        ("tiny kernel (200), eager / CUDA graph", "the CUDA graph is 5x faster than eager"),
        ("training step bf16", "bf16 is 3.33x faster than fp32"),
        ("training step fp16", "fp32 is 1.2x faster than fp16"),
    ]:
        assert expected in rows[row], rows[row]
    frobenius = next(r for k, r in rows.items() if k.startswith("Frobenius"))
    assert "log at end is 2.5x faster than per-step `.item()`" in frobenius
    assert "2,800 GB/s (84% of datasheet 3.35 TB/s)" in rows["copy bandwidth (1024 MiB)"]
    assert "1.0% apart" in rows["our timer vs triton do_bench, bf16 n = 8192"]
    # Every row comparing two times says which is faster, with a ratio of at least 1.
    for ratio in re.findall(r"([0-9.]+)x", text):
        assert float(ratio) >= 1


def test_summary_of_a_quick_cpu_run_says_so():
    text = summary_markdown(cpu_results())
    assert "quick sizes" in text and "too small to compare" in text
    assert "CPU only: this machine has no GPU that PyTorch can use" in text
    assert "per-step `.item()` is 1.33x faster than log at end" in text
    assert "CPU AMD EPYC" not in text  # the device is the CPU: not named twice


def test_report_can_be_drawn_again_from_results_json(tmp_path, capsys):
    import json

    from d2lgpu import bench

    source = tmp_path / "earlier.json"
    source.write_text(json.dumps(gpu_results()))
    assert bench.run(out=tmp_path / "out", results_json=source) == 0
    for name in ("matmul_tflops.png", "crossover.png", "amp.png"):
        assert (tmp_path / "out" / name).read_bytes()[:4] == b"\x89PNG"
    assert json.loads((tmp_path / "out" / "results.json").read_text()) == gpu_results()
    assert "measuring nothing" in capsys.readouterr().out
    with pytest.raises(FileNotFoundError, match="results_json: no such file"):
        bench.run(out=tmp_path / "out", results_json=tmp_path / "missing.json")


def busy_cpu_results():
    """The review's busy CPU run: the crossover curve flat at 48 ms for n = 64..512."""
    results = cpu_results()
    results["quick"] = False
    sizes = [64, 128, 256, 512, 1024, 2048]
    results["cpu_matmul"] = [
        {"n": n, "seconds": s, "tflops": 2 * n**3 / s / 1e12, "iqr_seconds": 1e-4}
        for n, s in zip(sizes, [0.0477, 0.0480, 0.0480, 0.0480, 0.09, 0.6], strict=True)
    ]
    results["amp"]["steps"][0].update(seconds=0.252, iqr_seconds=0.2)
    results["amp"]["steps"][1].update(seconds=0.381, iqr_seconds=0.01)
    return results


@pytest.mark.parametrize(
    "make", [gpu_results, cpu_results, busy_cpu_results], ids=["gpu", "cpu", "busy cpu"]
)
@pytest.mark.parametrize("plot", ["plot_matmul_tflops", "plot_crossover", "plot_amp"])
def test_every_bench_plot_reads(make, plot):
    fig = getattr(bench_report, plot)(make())
    assert_readable(fig)


def test_cpu_throughput_is_in_gflops_and_the_label_says_so():
    fig = bench_report.plot_matmul_tflops(cpu_results())
    assert fig.axes[0].get_ylabel() == "GFLOP/s achieved (higher is better)"
    assert max(fig.axes[0].get_lines()[0].get_ydata()) == pytest.approx(100)
    assert "| matmul fp32, best GFLOP/s | 100 (no datasheet entry) |" in summary_markdown(
        cpu_results()
    )


def test_a_busy_machine_is_named_in_a_warning_the_summary_and_the_titles():
    results = busy_cpu_results()
    noisy = bench_report.noisy_measurements(results)
    # The flat curve, the same product timed 0.005 ms and 48 ms in one run, the step's spread.
    assert set(noisy) == {"cpu_matmul", "matmul fp32", "amp"}, noisy
    assert "n = 64 and n = 128 take about the same time" in noisy["cpu_matmul"]
    assert "timed twice" in noisy["matmul fp32"]
    warnings = bench_report.noise_warnings(results)
    assert len(warnings) == 3
    assert all("machine was busy" in w and "re-run" in w for w in warnings)
    assert warnings[0].startswith("the CPU matrix-product curve (crossover.png) is noisy")
    text = summary_markdown(results)
    assert "**Noisy measurements**" in text and warnings[0] in text
    assert "| CPU vs GPU matrix product | NOISY: CPU only" in text
    assert "| training step bf16 | NOISY: 381 ms" in text
    assert "NOISY" in bench_report.plot_crossover(results).axes[0].get_title()
    assert "NOISY" in bench_report.plot_amp(results).get_suptitle()
    assert "NOISY" in bench_report.plot_matmul_tflops(results).axes[0].get_title()
    assert "NOISY" not in bench_report.plot_matmul_tflops(cpu_results()).axes[0].get_title()


def test_the_same_product_timed_twice_and_disagreeing_is_noisy():
    results = cpu_results()
    results["cpu_matmul"] = [dict(p, seconds=p["seconds"] * 3) for p in results["cpu_matmul"]]
    assert "timed twice" in bench_report.noisy_measurements(results)["cpu_matmul"]


def test_quiet_runs_and_old_results_without_spreads_raise_no_warning():
    assert bench_report.noisy_measurements(gpu_results()) == {}
    assert bench_report.noisy_measurements(cpu_results()) == {}
    assert "NOISY" not in summary_markdown(gpu_results())


def test_old_results_json_without_spreads_still_draws(tmp_path, capsys):
    import json

    from d2lgpu import bench

    source = tmp_path / "old.json"
    source.write_text(json.dumps(busy_cpu_results() | {"amp": cpu_results()["amp"]}))
    assert bench.run(out=tmp_path / "out", results_json=source) == 0
    out = capsys.readouterr().out
    assert "warning: the CPU matrix-product curve (crossover.png) is noisy" in out
    assert "NOISY" in (tmp_path / "out" / "summary.md").read_text()
