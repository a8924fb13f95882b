import time

import pytest
import torch

from d2lgpu import timing
from d2lgpu.devices import run_fresh_python


def test_timer_synchronizes_before_every_clock_read(monkeypatch):
    events = []
    monkeypatch.setattr(timing, "sync", lambda device: events.append(("sync", device)))
    clock = iter([10.0, 12.5])
    monkeypatch.setattr(timing.time, "perf_counter", lambda: events.append("clock") or next(clock))
    timer = timing.Timer("cuda:0")
    timer.start()
    assert timer.stop() == 2.5
    assert events == [("sync", "cuda:0"), "clock", ("sync", "cuda:0"), "clock"]


def test_timer_summaries_and_misuse():
    timer = timing.Timer()
    with pytest.raises(RuntimeError, match="before Timer.start"):
        timer.stop()
    timer.times = [1.0, 2.0, 3.0]
    assert (timer.sum(), timer.avg(), timer.cumsum()) == (6.0, 2.0, [1.0, 3.0, 6.0])
    with timing.Timer() as t:
        time.sleep(0.01)
    assert t.times[0] >= 0.01


def test_sync_on_cpu_is_a_no_op_and_never_initializes_cuda():
    # In a fresh process: an earlier test may have initialized CUDA in this one.
    code = (
        "import torch; from d2lgpu import timing; timing.sync('cpu'); timing.sync(None); "
        "print(torch.cuda.is_initialized())"
    )
    assert run_fresh_python(code).split() == ["False"]


def test_benchmark_measures_seconds_per_call_after_warmup():
    calls = []

    def work():
        calls.append(1)
        time.sleep(0.004)

    result = timing.benchmark(work, warmup=3, repeat=5, number=2, device="cpu")
    # torch.utils.benchmark adds a couple of warm-up calls of its own per measurement.
    assert len(calls) >= 3 + 5 * 2
    assert len(result.samples) == 5 and result.number == 2
    assert 0.004 <= result.median < 0.02
    assert result.min <= result.median and result.iqr >= 0
    assert result.threads == torch.get_num_threads()  # all threads, not benchmark's default 1
    assert "work: " in str(result) and "median" in str(result)


def test_benchmark_chooses_number_to_fill_a_sample():
    result = timing.benchmark(lambda: None, repeat=3, min_sample_s=0.001, label="noop")
    assert result.number > 10 and result.label == "noop"


def test_benchmark_passes_arguments_and_computes_rates():
    x = torch.ones(64, 64)
    result = timing.benchmark(torch.mm, x, x, repeat=3, device="cpu")
    flops = 2 * 64**3
    assert result.rate(flops) == pytest.approx(flops / result.median)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"repeat": 0}, "repeat must be an int >= 1"),
        ({"warmup": -1}, "warmup must be an int >= 0"),
        ({"number": 0}, "number must be None or an int >= 1"),
        ({"min_sample_s": 0}, "min_sample_s must be > 0"),
    ],
)
def test_benchmark_rejects_bad_counts(kwargs, message):
    with pytest.raises(ValueError, match=message):
        timing.benchmark(lambda: None, **kwargs)


def test_benchmark_rejects_a_non_callable():
    with pytest.raises(TypeError, match="fn must be callable, got Tensor"):
        timing.benchmark(torch.ones(3))


def test_compare_reports_speedups_against_the_baseline():
    slow = timing.BenchmarkResult("slow", [2.0, 2.0], 1, "cpu", 2)
    fast = timing.BenchmarkResult("fast", [0.5, 0.5], 1, "cpu", 2)
    table = timing.compare([slow, fast])
    assert "1.00x" in table.splitlines()[1] and "4.00x" in table.splitlines()[2]
    with pytest.raises(ValueError, match="baseline must be an index"):
        timing.compare([slow], baseline=3)


@pytest.mark.parametrize(
    "seconds, text", [(2.0, "2 s"), (0.0015, "1.5 ms"), (3e-6, "3 us"), (4e-9, "4 ns")]
)
def test_format_seconds(seconds, text):
    assert timing.format_seconds(seconds) == text


@pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")
def test_synchronized_timer_sees_gpu_work_that_an_unsynchronized_clock_misses():
    x = torch.randn(4096, 4096, device="cuda")
    x @ x
    torch.cuda.synchronize()
    start = time.perf_counter()
    for _ in range(10):
        x @ x
    unsynced = time.perf_counter() - start
    torch.cuda.synchronize()
    timer = timing.Timer("cuda")
    timer.start()
    for _ in range(10):
        x @ x
    assert timer.stop() > unsynced


@pytest.fixture
def fake_mps(monkeypatch):
    """Apple silicon without a Mac: mps 'available', torch.mps.synchronize recorded."""
    calls = []
    monkeypatch.setattr(torch.backends.mps, "is_available", lambda: True)
    monkeypatch.setattr(torch.mps, "synchronize", lambda: calls.append("mps sync"))
    return calls


def test_sync_waits_for_mps(fake_mps):
    timing.sync("mps")
    assert fake_mps == ["mps sync"]
    timing.sync(None)  # no device named: mps is synchronized where it is available
    assert fake_mps == ["mps sync", "mps sync"]
    timing.sync("cpu")
    assert len(fake_mps) == 2


def test_benchmark_on_mps_synchronizes_before_every_clock_read(fake_mps):
    result = timing.benchmark(lambda: None, device="mps", warmup=1, repeat=3, number=1)
    assert result.device == "mps" and len(result.samples) == 3
    # one sync after warm-up, then two clock reads (start, stop) per measurement at least
    assert len(fake_mps) >= 1 + 2 * 3
    fake_mps.clear()
    timing.benchmark(lambda: None, device="cpu", warmup=1, repeat=3, number=1)
    assert fake_mps == []  # the CPU's clock waits for nothing
