import json

import pytest
import torch

from d2lgpu import bench, bench_measures


def test_matmul_curve_reports_time_and_throughput_per_size():
    points = bench_measures.matmul_curve("cpu", "fp32", [32, 64], repeat=2)
    assert [p["n"] for p in points] == [32, 64]
    for p in points:
        assert p["seconds"] > 0
        assert p["tflops"] == pytest.approx(2 * p["n"] ** 3 / p["seconds"] / 1e12)
        # The spread of the repeats, stored so the report can tell a result from noise.
        assert p["min_seconds"] <= p["seconds"] <= p["max_seconds"] and p["iqr_seconds"] >= 0


def test_matmul_precision_is_restored_after_the_block():
    before = torch.get_float32_matmul_precision()
    with bench_measures.matmul_precision("high"):
        assert torch.get_float32_matmul_precision() == "high"
    assert torch.get_float32_matmul_precision() == before


def test_frobenius_loop_variants_agree_and_are_timed():
    result = bench_measures.frobenius_item_cost("cpu", steps=20, n=16)
    assert result["per_step_seconds"] > 0 and result["at_end_seconds"] > 0
    assert result["slowdown"] == pytest.approx(
        result["per_step_seconds"] / result["at_end_seconds"]
    )


def test_amp_step_measures_every_precision_on_cpu():
    for precision in ("fp32", "bf16"):
        step = bench_measures.amp_step("cpu", width=16, batch=4, precision=precision)
        assert step["seconds"] > 0 and step["peak_bytes"] is None  # no counters on CPU
        assert step["iqr_seconds"] >= 0


@pytest.mark.slow
def test_python_m_d2lgpu_bench_quick_writes_results_plots_and_summary(
    tmp_path, capsys, monkeypatch
):
    from d2lgpu.__main__ import main

    monkeypatch.setenv("D2LGPU_DEVICE", "cpu")  # the CPU sizes, also on a GPU machine
    assert main(["bench", "--quick", "--out", str(tmp_path)]) == 0
    results = json.loads((tmp_path / "results.json").read_text())
    assert results["device"] == "cpu" and results["torch"] == torch.__version__
    assert results["datasheet"] is None and "fp32" in results["matmul"]
    assert results["cpu_matmul"][-1]["n"] == 256
    for name in ("matmul_tflops.png", "crossover.png", "amp.png"):
        assert (tmp_path / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert all("iqr_seconds" in p for p in results["cpu_matmul"])
    summary = (tmp_path / "summary.md").read_text()
    assert "no datasheet entry" in summary and "training step bf16" in summary
    out = capsys.readouterr().out
    assert "wrote" in out
    # One line per measurement as the bench goes, not two silent minutes.
    assert "  matmul fp32 on cpu, n = 64..256: " in out and "  training step bf16, " in out


def test_the_bench_measures_mps_on_apple_silicon_unless_told_otherwise(gpus, monkeypatch, tmp_path):
    seen = []

    def fake_measure(device, quick):
        seen.append(device)
        raise SystemExit  # stop before measuring: only the choice of device is tested

    monkeypatch.setattr(bench, "measure", fake_measure)
    gpus(0)
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    monkeypatch.delenv("D2LGPU_DEVICE", raising=False)
    with pytest.raises(SystemExit):
        bench.run(out=tmp_path)
    monkeypatch.setenv("D2LGPU_DEVICE", "cpu")
    with pytest.raises(SystemExit):
        bench.run(out=tmp_path)
    assert seen == [torch.device("mps"), torch.device("cpu")]
