import re
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


@pytest.mark.slow
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
        time.sleep(0.02)

    result = timing.benchmark(work, warmup=3, repeat=5, number=2, device="cpu")
    # torch.utils.benchmark adds a couple of warm-up calls of its own per measurement.
    assert len(calls) >= 3 + 5 * 2
    assert len(result.samples) == 5 and result.number == 2
    # Seconds per call: at least the sleep, and less than two calls (a sample's time not
    # divided by its 2 calls). On the fastest sample: a busy machine wakes a sleeper late.
    assert result.median >= 0.02 and 0.02 <= result.min < 0.04
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
        ({"number": 0}, "number must be an int >= 1 or None, got 0"),
        ({"threads": 0}, "threads must be an int >= 1 or None, got 0"),
        ({"min_sample_s": 0}, "min_sample_s must be a number > 0, got 0"),
    ],
)
def test_benchmark_rejects_bad_counts(kwargs, message):
    with pytest.raises(ValueError, match=message):
        timing.benchmark(lambda: None, **kwargs)


def test_thread_clock_counts_the_threads_cpu_time_not_the_wall_clock():
    def sleep_then_spin():
        time.sleep(0.02)  # wall time, no CPU time
        start = time.thread_time()
        while time.thread_time() - start < 0.005:  # CPU time of this thread
            pass

    kwargs = {"device": "cpu", "threads": 1, "warmup": 1, "repeat": 3, "number": 1}
    wall = timing.benchmark(sleep_then_spin, **kwargs)
    thread = timing.benchmark(sleep_then_spin, clock="thread", **kwargs)
    assert wall.min >= 0.025 and wall.clock == "wall"
    # The spin's 5 ms and a little more; the sleep's 20 ms are not counted.
    assert 0.005 <= thread.min < 0.015 and thread.clock == "thread"
    assert str(thread).endswith("cpu, thread CPU time)") and str(wall).endswith("cpu)")


@pytest.mark.timeout(60)
def test_thread_clock_in_coarse_steps_still_gives_each_calls_time(monkeypatch):
    # Windows moves a thread's CPU time in 15.6 ms ticks: a 2 ms call reads 0 or 15.6 ms.
    # Here each call adds exactly 2 ms to a CPU clock read in such ticks, and sleeps 2 ms
    # of wall time. The clock is exact, so the test holds on a busy machine too.
    tick, used = 0.0156, [0.0]
    monkeypatch.setattr(timing.time, "thread_time", lambda: used[0] // tick * tick)
    monkeypatch.setattr(timing, "_thread_clock_step", lambda: tick)

    def call_2ms():
        time.sleep(0.002)
        used[0] += 0.002

    result = timing.benchmark(call_2ms, device="cpu", threads=1, repeat=3, clock="thread")
    # Counted on the coarse clock, one call would read 0 s and 10,000 calls fill a sample.
    assert result.number < 1000
    # A sample of N calls is off by at most one tick, 15.6 ms / N: N >= 31 keeps it within
    # 0.5 ms of 2 ms. Filling only min_sample_s (10 ms, 5 calls) would read 0 or 3.1 ms.
    assert all(0.0015 <= t <= 0.0025 for t in result.samples), result


def test_thread_clock_step_is_the_smallest_move_of_the_clock(monkeypatch):
    assert 0 < timing._thread_clock_step() < 0.001  # on Linux: well under a millisecond
    reads = iter([5.0, 5.0, 5.0, 5.0156, 7.0])
    monkeypatch.setattr(timing.time, "thread_time", lambda: next(reads))
    assert timing._thread_clock_step.__wrapped__() == pytest.approx(0.0156)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"clock": "cpu", "device": "cpu"}, "clock must be 'wall' or 'thread', got 'cpu'"),
        ({"clock": "thread", "threads": 1}, "needs device='cpu' and threads=1; got device=None"),
        ({"clock": "thread", "device": "cuda", "threads": 1}, "got device='cuda', threads=1"),
        ({"clock": "thread", "device": "cpu", "threads": 2}, "got device='cpu', threads=2"),
    ],
)
def test_benchmark_rejects_a_clock_it_cannot_read_honestly(kwargs, message):
    calls = []
    with pytest.raises(ValueError, match=re.escape(message)):
        timing.benchmark(lambda: calls.append(1), **kwargs)
    assert calls == []  # refused before any call


def test_compare_refuses_results_timed_with_different_clocks():
    wall = timing.BenchmarkResult("wall", [1.0], 1, "cpu", 1)
    thread = timing.BenchmarkResult("thread", [1.0], 1, "cpu", 1, clock="thread")
    with pytest.raises(ValueError, match=r"one clock to be compared, got \['thread', 'wall'\]"):
        timing.compare([wall, thread])
    assert "1.00x" in timing.compare([thread, thread])


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


class FakeTimer:
    """Stands in for torch.utils.benchmark.Timer: scripted medians, recorded calls."""

    calls: list = []
    medians: list = []

    def __init__(self, stmt, globals, num_threads, label):
        FakeTimer.calls.append(("init", num_threads, label))
        self.fn = globals["fn"]

    def timeit(self, number):
        FakeTimer.calls.append(("timeit", number))
        return type("Measurement", (), {"median": FakeTimer.medians.pop(0)})()


@pytest.fixture
def fake_tbench(monkeypatch):
    FakeTimer.calls, FakeTimer.medians = [], []
    fake = type("tbench", (), {"Timer": FakeTimer})
    monkeypatch.setattr(timing, "_import_torch_benchmark", lambda: fake)
    return FakeTimer


def test_benchmark_warms_up_syncs_then_takes_repeat_samples(fake_tbench, monkeypatch):
    events = []
    monkeypatch.setattr(timing, "sync", lambda device: events.append(("sync", device)))
    fake_tbench.medians = [0.5, 0.1, 0.3, 0.2]
    result = timing.benchmark(
        lambda: events.append("call"),
        warmup=2,
        repeat=4,
        number=3,
        device="cuda:1",
        label="f",
        threads=3,
    )
    assert events == ["call", "call", ("sync", "cuda:1")]  # warm-up, then one sync
    assert fake_tbench.calls == [("init", 3, "f")] + [("timeit", 3)] * 4
    assert result.samples == [0.5, 0.1, 0.3, 0.2] and result.number == 3
    assert (result.device, result.threads, result.label) == ("cuda:1", 3, "f")


@pytest.mark.parametrize(
    "once, min_sample_s, number",
    # a call too fast to time (0 s) counts as 1 ns
    [(0.001, 0.01, 10), (0.003, 0.01, 3), (1.0, 0.01, 1), (0, 1, 10_000), (0, 1.5e-6, 1500)],
)
def test_benchmark_number_fills_min_sample_s(fake_tbench, once, min_sample_s, number):
    fake_tbench.medians = [once, 1.0, 1.0]
    result = timing.benchmark(lambda: None, warmup=0, repeat=2, min_sample_s=min_sample_s)
    assert fake_tbench.calls[1:] == [("timeit", 1), ("timeit", number), ("timeit", number)]
    assert result.number == number and result.device == "unspecified"
    assert result.threads == torch.get_num_threads()


def test_benchmark_result_statistics():
    r = timing.BenchmarkResult("x", [4.0, 1.0, 100.0, 2.0, 3.0], 1, "cpu", 1)
    assert (r.median, r.min, r.mean) == (3.0, 1.0, 22.0)
    assert r.iqr == 2.0  # quartiles 2 and 4
    assert r.rate(6.0) == 2.0
    assert timing.BenchmarkResult("x", [5.0], 1, "cpu", 1).iqr == 0.0
    assert str(r) == "x: 3 s median (IQR 2 s, 5 x 1 calls, cpu)"


def test_timer_average_and_cumulative_sums_of_several_intervals(monkeypatch):
    monkeypatch.setattr(timing, "sync", lambda device: None)
    clock = iter([0.0, 1.0, 5.0, 8.0])
    monkeypatch.setattr(timing.time, "perf_counter", lambda: next(clock))
    timer = timing.Timer()
    for _ in range(2):
        timer.start()
        timer.stop()
    assert timer.times == [1.0, 3.0]
    assert (timer.sum(), timer.avg(), timer.cumsum()) == (4.0, 2.0, [1.0, 4.0])
    assert timing.Timer().avg() == 0.0
    with pytest.raises(RuntimeError, match="before Timer.start"):
        timer.stop()  # stop() ends the interval: a second stop has none


def test_sync_waits_for_the_device_it_is_given(gpus, monkeypatch):
    calls = []
    monkeypatch.setattr(torch.cuda, "synchronize", lambda device=None: calls.append(device))
    gpus(2)
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: False)
    timing.sync(None)  # CUDA never used by this process: nothing to wait for
    assert calls == []
    monkeypatch.setattr(torch.cuda, "is_initialized", lambda: True)
    timing.sync(None)
    timing.sync("cuda:1")
    timing.sync(torch.device("cpu"))
    assert calls == [None, torch.device("cuda:1")]
    monkeypatch.setattr(torch.mps, "synchronize", lambda: calls.append("mps"))
    timing.sync("mps")
    assert calls[-1] == "mps"


def test_compare_with_another_baseline_and_an_empty_list():
    a = timing.BenchmarkResult("a", [1.0], 1, "cpu", 1)
    b = timing.BenchmarkResult("b", [4.0], 1, "cpu", 1)
    lines = timing.compare([a, b], baseline=1).splitlines()
    assert lines[1].split() == ["a", "1", "s", "0", "ns", "4.00x"]
    assert lines[2].endswith("1.00x")
    with pytest.raises(ValueError, match="non-empty"):
        timing.compare([])
    with pytest.raises(ValueError, match="baseline must be an index"):
        timing.compare([a], baseline=-1)


@pytest.mark.parametrize(
    "seconds, text", [(1.0, "1 s"), (0.999, "999 ms"), (1e-3, "1 ms"), (1e-6, "1 us"), (0, "0 ns")]
)
def test_format_seconds_at_the_unit_boundaries(seconds, text):
    assert timing.format_seconds(seconds) == text


def test_timer_stop_returns_the_interval_it_just_ended(monkeypatch):
    monkeypatch.setattr(timing, "sync", lambda device: None)
    clock = iter([0.0, 1.0, 5.0, 8.0])
    monkeypatch.setattr(timing.time, "perf_counter", lambda: next(clock))
    timer = timing.Timer()
    assert [timer.start().stop() for _ in range(2)] == [1.0, 3.0]


def test_benchmark_defaults_two_warmups_seven_samples_of_ten_milliseconds(fake_tbench):
    calls = []
    fake_tbench.medians = [0.001] + [1.0] * 7  # one call takes 1 ms: 10 fill 10 ms
    result = timing.benchmark(lambda: calls.append(1))
    assert calls == [1, 1]  # the warm-up; the fake timer calls nothing
    assert result.number == 10 and len(result.samples) == 7


def test_iqr_of_two_samples_is_their_quartile_spread():
    # "inclusive" quartiles of [1, 3] are 1.5 and 2.5; one sample has no spread.
    assert timing.BenchmarkResult("x", [1.0, 3.0], 1, "cpu", 1).iqr == 1.0


def test_compare_uses_medians_and_aligns_labels_of_any_length():
    # The means (4 and 1) would give a speed-up of 4; the medians (1 and 0.5) give 2.
    slow = timing.BenchmarkResult("slow matmul", [1.0, 1.0, 10.0], 1, "cpu", 1)
    fast = timing.BenchmarkResult("f", [0.5, 0.5, 2.0], 1, "cpu", 1)
    lines = timing.compare([slow, fast]).splitlines()
    assert lines[2].split()[:3] == ["f", "500", "ms"] and lines[2].endswith("2.00x")
    assert len({len(line) for line in lines}) == 1  # the columns line up
    with pytest.raises(ValueError, match=r"baseline must be an index into results \(0\.\.1\)"):
        timing.compare([slow, fast], baseline=2)


def test_import_torch_benchmark_quiets_the_cpp_extension_logger_only_while_importing(
    monkeypatch,
):
    """The import runs with that logger at ERROR; its level is restored after."""
    import importlib.abc
    import importlib.machinery
    import logging
    import sys
    import types

    logger = logging.getLogger("torch.utils.cpp_extension")
    levels = []

    class Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
        def find_spec(self, name, path, target=None):
            if name == "torch.utils.benchmark":
                return importlib.machinery.ModuleSpec(name, self)
            return None

        def create_module(self, spec):
            return types.ModuleType(spec.name)

        def exec_module(self, module):
            levels.append(logger.level)

    # The real module first, so that monkeypatch has it to put back: had nothing imported it
    # yet, the fake would stay in sys.modules for every later test in this process.
    import torch.utils.benchmark  # noqa: F401

    monkeypatch.delitem(sys.modules, "torch.utils.benchmark")
    monkeypatch.delattr(torch.utils, "benchmark")
    monkeypatch.setattr(sys, "meta_path", [Finder(), *sys.meta_path])
    monkeypatch.setattr(logger, "level", logging.INFO)
    module = timing._import_torch_benchmark()
    assert levels == [logging.ERROR] and logger.level == logging.INFO
    assert module is sys.modules["torch.utils.benchmark"]
