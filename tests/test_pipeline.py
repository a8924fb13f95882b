"""d2lgpu.pipeline: micro-batches, a thread-safe timeline, and the bubble's two formulas."""

import threading
import time

import pytest
import torch

from d2lgpu.pipeline import (
    Span,
    Timeline,
    bubble_fraction,
    gpipe_order,
    ideal_bubble,
    micro_batches,
    one_f_one_b_order,
    replay,
    schedule_ticks,
)


@pytest.mark.parametrize(
    "rows, count, sizes",
    [(10, 4, [3, 3, 2, 2]), (8, 4, [2, 2, 2, 2]), (3, 4, [1, 1, 1]), (5, 1, [5]), (1, 8, [1])],
)
def test_micro_batches_are_in_order_never_empty_and_balanced(rows, count, sizes):
    x = torch.arange(rows * 2).reshape(rows, 2)
    parts = micro_batches(x, count)
    assert [len(p) for p in parts] == sizes
    assert torch.equal(torch.cat(parts), x)
    assert all(p.data_ptr() >= x.data_ptr() for p in parts)  # views, no copies


@pytest.mark.parametrize(
    "x, count, message",
    [
        (torch.zeros(4, 2), 0, "count must be an int >= 1, got 0"),
        (torch.zeros(4, 2), 2.0, "count must be an int >= 1, got 2.0"),
        (torch.zeros(0, 2), 2, "x must be a tensor with at least one row, got shape (0, 2)"),
        (torch.tensor(1.0), 2, "x must be a tensor with at least one row, got shape ()"),
        ([1, 2], 2, "x must be a tensor with at least one row, got list"),
    ],
)
def test_micro_batches_reject_bad_input(x, count, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        micro_batches(x, count)


def test_ideal_bubble_is_gpipes_formula():
    assert ideal_bubble(2, 1) == pytest.approx(0.5)
    assert ideal_bubble(2, 4) == pytest.approx(0.2)
    assert ideal_bubble(4, 8) == pytest.approx(3 / 11)
    assert ideal_bubble(1, 5) == 0.0
    with pytest.raises(ValueError, match="n_micro must be an int >= 1, got 0"):
        ideal_bubble(2, 0)
    with pytest.raises(ValueError, match="n_stages must be an int >= 1, got True"):
        ideal_bubble(True, 2)


def gpipe_spans(n_stages, n_micro, slot=1.0):
    """The ideal GPipe forward schedule: stage s works on micro-batch i in slot s + i."""
    return [
        Span(s, i, (s + i) * slot, (s + i + 1) * slot)
        for s in range(n_stages)
        for i in range(n_micro)
    ]


@pytest.mark.parametrize("n_stages, n_micro", [(2, 1), (2, 4), (3, 5), (4, 16)])
def test_bubble_of_an_ideal_schedule_equals_the_formula(n_stages, n_micro):
    spans = gpipe_spans(n_stages, n_micro, slot=0.25)
    assert bubble_fraction(spans, n_stages) == pytest.approx(ideal_bubble(n_stages, n_micro))


def test_stages_that_never_overlap_idle_at_least_one_minus_one_over_s():
    spans = [Span(0, 0, 0.0, 3.0), Span(1, 0, 3.5, 4.0)]  # a naive split with a gap
    assert bubble_fraction(spans, 2) == pytest.approx(1 - 3.5 / 8)
    assert bubble_fraction(spans, 2) >= 0.5


def test_bubble_fraction_rejects_bad_input():
    with pytest.raises(ValueError, match="spans must be a non-empty list of Span"):
        bubble_fraction([], 2)
    with pytest.raises(ValueError, match="spans must be a non-empty list of Span"):
        bubble_fraction([(0, 0, 0.0, 1.0)], 2)
    with pytest.raises(ValueError, match="spans must be a non-empty list of Span"):
        bubble_fraction(None, 2)
    with pytest.raises(ValueError, match=r"n_stages must be more than .* \(2\), got 2"):
        bubble_fraction([Span(2, 0, 0.0, 1.0)], 2)
    with pytest.raises(ValueError, match="makespan is 0"):
        bubble_fraction([Span(0, 0, 1.0, 1.0)], 1)


def test_timeline_records_spans_from_several_threads():
    timeline = Timeline()

    def stage(k):
        for i in range(3):
            with timeline.record(k, i, device="cpu"):
                time.sleep(0.002)

    threads = [threading.Thread(target=stage, args=(k,)) for k in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    spans = timeline.spans
    assert sorted((s.stage, s.micro_batch) for s in spans) == [
        (k, i) for k in (0, 1) for i in (0, 1, 2)
    ]
    assert all(s.seconds >= 0.002 and s.start >= 0 and s.phase == "forward" for s in spans)
    assert timeline.makespan >= 0.006  # each stage slept three times in a row
    timeline.reset()
    assert timeline.spans == []


def test_timeline_keeps_no_span_for_a_block_that_raised_and_rejects_bad_labels():
    timeline = Timeline()
    with pytest.raises(RuntimeError, match="boom"):
        with timeline.record(0, 0):
            raise RuntimeError("boom")
    assert timeline.spans == []
    with pytest.raises(ValueError, match="stage must be an int >= 0, got -1"):
        with timeline.record(-1, 0):
            pass
    with pytest.raises(ValueError, match="phase must be a non-empty string"):
        with timeline.record(0, 0, phase=""):
            pass


@pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")
def test_timeline_span_covers_the_gpu_work_not_its_launch():
    timeline = Timeline()
    x = torch.randn(4096, 4096, device="cuda")
    x @ x
    torch.cuda.synchronize()
    with timeline.record(0, 0, device="cuda"):
        for _ in range(20):
            y = x @ x
    start = time.perf_counter()
    torch.cuda.synchronize()  # nothing left: the span waited for the products
    assert time.perf_counter() - start < 0.5 * timeline.spans[0].seconds
    assert y.shape == x.shape


def test_replay_of_a_schedule_without_waits_changes_nothing():
    spans = gpipe_spans(3, 4, slot=0.5)
    assert sorted(replay(spans), key=lambda s: (s.stage, s.start)) == sorted(
        spans, key=lambda s: (s.stage, s.start)
    )


def test_replay_removes_the_waits_between_spans_and_keeps_each_spans_length():
    # two stages, three micro-batches, a wait of 0.25 s before every span but the first
    measured = [
        Span(0, 0, 10.0, 11.0), Span(0, 1, 11.25, 12.25), Span(0, 2, 12.5, 13.5),
        Span(1, 0, 11.25, 13.25), Span(1, 1, 13.5, 15.5), Span(1, 2, 15.75, 17.75),
    ]  # fmt: skip
    # by hand: stage 0 back to back from 10; stage 1 (twice as slow) from stage 0's first end
    assert replay(measured) == [
        Span(0, 0, 10.0, 11.0), Span(0, 1, 11.0, 12.0), Span(0, 2, 12.0, 13.0),
        Span(1, 0, 11.0, 13.0), Span(1, 1, 13.0, 15.0), Span(1, 2, 15.0, 17.0),
    ]  # fmt: skip
    assert bubble_fraction(replay(measured), 2) < bubble_fraction(measured, 2)


def test_replay_waits_for_the_previous_stage_when_it_is_the_slower_one():
    measured = [Span(0, i, 3.0 * i, 3.0 * i + 3.0) for i in range(3)] + [
        Span(1, i, 3.0 * i + 3.5, 3.0 * i + 4.5) for i in range(3)
    ]
    again = replay(measured)
    # stage 1 (1 s per micro-batch) starts each one when stage 0 (3 s) has finished it
    assert [(s.start, s.end) for s in again if s.stage == 1] == [
        (3.0, 4.0),
        (6.0, 7.0),
        (9.0, 10.0),
    ]
    assert [(s.start, s.end) for s in again if s.stage == 0] == [(0.0, 3.0), (3.0, 6.0), (6.0, 9.0)]


def test_replay_keeps_the_order_each_stage_ran_its_micro_batches_in():
    measured = [
        Span(0, 1, 0.0, 1.0),
        Span(0, 0, 1.0, 2.0),
        Span(1, 1, 1.5, 2.5),
        Span(1, 0, 3.0, 4.0),
    ]
    again = replay(measured)
    assert [(s.stage, s.micro_batch, s.start, s.end) for s in again] == [
        (0, 1, 0.0, 1.0), (0, 0, 1.0, 2.0), (1, 1, 1.0, 2.0), (1, 0, 2.0, 3.0),
    ]  # fmt: skip


@pytest.mark.parametrize("n_stages, n_micro", [(2, 1), (2, 4), (3, 5), (4, 8)])
def test_replay_of_equal_spans_has_gpipes_bubble_whatever_the_waits(n_stages, n_micro):
    delayed = [
        Span(s.stage, s.micro_batch, s.start + 0.1 * (s.stage + s.micro_batch) ** 2,
             s.end + 0.1 * (s.stage + s.micro_batch) ** 2)
        for s in gpipe_spans(n_stages, n_micro)
    ]  # fmt: skip
    assert bubble_fraction(delayed, n_stages) > ideal_bubble(n_stages, n_micro) + 0.01
    assert bubble_fraction(replay(delayed), n_stages) == pytest.approx(
        ideal_bubble(n_stages, n_micro)
    )


def test_a_replayed_naive_split_idles_exactly_half_and_micro_batches_idle_less():
    naive = [Span(0, 0, 0.0, 3.0), Span(1, 0, 5.0, 6.0)]
    assert bubble_fraction(replay(naive), 2) == pytest.approx(0.5)
    piped = [Span(0, i, 2.0 * i, 2.0 * i + 0.7) for i in range(4)] + [
        Span(1, i, 2.0 * i + 1.0, 2.0 * i + 1.3) for i in range(4)
    ]  # uneven stages, long waits: measured, no better than the naive split
    assert bubble_fraction(piped, 2) > 0.5
    assert bubble_fraction(replay(piped), 2) < 0.5


@pytest.mark.parametrize(
    "spans, message",
    [
        ([], "spans must be a non-empty list of Span"),
        ([Span(0, 0, 0.0, 1.0, "optimizer")], r"'forward' or 'backward' spans, got phases \['optimizer'\]"),
        ([Span(0, 0, 0.0, 1.0, "backward")], r"an order that can run: stuck at \{0: \('backward', 0\)\}"),
        ([Span(1, 0, 0.0, 1.0)], r"stages 0, 1, ... with none missing, got \[1\]"),
        ([Span(0, 0, 0.0, 1.0), Span(0, 1, 1.0, 2.0), Span(1, 0, 1.0, 2.0)],
         r"of stage 0 have \[0, 1\], of stage 1 \[0\]"),
        ([Span(0, 0, 0.0, 1.0), Span(0, 0, 1.0, 2.0), Span(1, 0, 1.0, 2.0), Span(1, 1, 2.0, 3.0)],
         r"each once per phase: the forward spans of stage 0 have \[0, 0\]"),
    ],
)  # fmt: skip
def test_replay_rejects_spans_that_are_no_pipeline(spans, message):
    with pytest.raises(ValueError, match=message):
        replay(spans)


def test_bubble_counts_a_stage_that_never_worked_as_idle():
    spans = [Span(0, 0, 0.0, 1.0), Span(1, 0, 1.0, 2.0)]
    assert bubble_fraction(spans, 2) == pytest.approx(0.5)
    assert bubble_fraction(spans, 3) == pytest.approx(1 - 2 / 6)  # stage 2 idle throughout


def test_bubble_and_makespan_do_not_assume_the_spans_are_in_order_of_start():
    spans = [Span(1, 0, 2.0, 3.0), Span(0, 0, 0.0, 2.0)]  # as Timeline lists them: by end
    assert bubble_fraction(spans, 2) == pytest.approx(1 - 3 / 6)


class FakeClock:
    """time.perf_counter, scripted: each call returns the next value."""

    def __init__(self, *values):
        self.values = list(values)

    def __call__(self):
        return self.values.pop(0)


def test_timeline_times_are_seconds_since_it_was_made_and_its_makespan_covers_every_span(
    monkeypatch,
):
    import d2lgpu.pipeline as pipeline

    monkeypatch.setattr(pipeline.time, "perf_counter", FakeClock(100.0, 101.0, 103.5, 104.0, 106.0))
    timeline = Timeline()  # zero at 100
    with timeline.record(0, 0, phase="backward"):  # 101 to 103.5
        pass
    with timeline.record(1, 0):  # 104 to 106
        pass
    assert timeline.spans == [Span(0, 0, 1.0, 3.5, "backward"), Span(1, 0, 4.0, 6.0, "forward")]
    assert timeline.makespan == 5.0


def test_timeline_reads_the_end_after_synchronizing_the_stages_device(monkeypatch):
    import d2lgpu.pipeline as pipeline

    clock, events = [0.0], []

    def perf_counter():
        events.append("clock")
        return clock[0]

    def sync(device):
        events.append(f"sync {device}")
        clock[0] += 2.0  # the device had two seconds of queued work left

    monkeypatch.setattr(pipeline.time, "perf_counter", perf_counter)
    monkeypatch.setattr(pipeline, "sync", sync)
    timeline = Timeline()
    with timeline.record(0, 0, device="cuda:1"):
        events.append("block")
    assert events == ["clock", "clock", "block", "sync cuda:1", "clock"]
    assert timeline.spans[0].seconds == 2.0  # the queued work, not only its launch


def test_the_schedules_orders():
    assert one_f_one_b_order(2, 4) == [
        [("F", 0), ("F", 1), ("B", 0), ("F", 2), ("B", 1), ("F", 3), ("B", 2), ("B", 3)],
        [("F", 0), ("B", 0), ("F", 1), ("B", 1), ("F", 2), ("B", 2), ("F", 3), ("B", 3)],
    ]  # what torch.distributed.pipelining's Schedule1F1B runs (chapter 9 checks it)
    assert one_f_one_b_order(4, 2)[0] == [("F", 0), ("F", 1), ("B", 0), ("B", 1)]  # M < S
    assert gpipe_order(2, 2) == [[("F", 0), ("F", 1), ("B", 0), ("B", 1)]] * 2


def in_flight_peak(order):
    live = peak = 0
    for action, _ in order:
        live += 1 if action == "F" else -1
        peak = max(peak, live)
    return peak


@pytest.mark.parametrize("n_stages, n_micro", [(2, 4), (4, 8), (4, 2), (3, 3), (1, 5)])
def test_both_schedules_idle_s_minus_1_over_m_and_1f1b_keeps_fewer(n_stages, n_micro):
    for order in (gpipe_order, one_f_one_b_order):
        spans = schedule_ticks(order(n_stages, n_micro), backward_ticks=2)
        idle = bubble_fraction(spans, n_stages)
        if n_stages > 1:
            assert idle / (1 - idle) == pytest.approx((n_stages - 1) / n_micro)
        assert len(spans) == 2 * n_stages * n_micro
        assert max(s.end for s in spans) == 3 * (n_micro + n_stages - 1)
    for k, order in enumerate(one_f_one_b_order(n_stages, n_micro)):
        assert in_flight_peak(order) == min(n_stages - k, n_micro)
    assert all(in_flight_peak(o) == n_micro for o in gpipe_order(n_stages, n_micro))


def test_a_replayed_training_run_waits_for_the_backward_of_the_next_stage():
    spans = [Span(0, 0, 0.0, 1.0), Span(1, 0, 5.0, 6.0), Span(1, 0, 6.0, 8.0, "backward"),
             Span(0, 0, 9.0, 11.0, "backward")]  # fmt: skip
    assert [(s.stage, s.start, s.end) for s in replay(spans)] == [
        (0, 0.0, 1.0), (0, 4.0, 6.0), (1, 1.0, 2.0), (1, 2.0, 4.0)
    ]  # fmt: skip


def test_schedule_arguments_are_checked():
    with pytest.raises(ValueError, match="n_micro"):
        gpipe_order(2, 0)
    with pytest.raises(ValueError, match="n_stages"):
        one_f_one_b_order(0, 2)
    with pytest.raises(ValueError, match=r"orders\[0\] must be"):
        schedule_ticks([[("X", 0)]])
    with pytest.raises(ValueError, match=r"orders\[1\] must be"):
        schedule_ticks([[("F", 0)], [("", 0)]])
    with pytest.raises(ValueError, match=r"orders\[0\] must be"):
        schedule_ticks([[("F", "0")]])
    with pytest.raises(ValueError, match="can run"):
        schedule_ticks([[("B", 0), ("F", 0)], [("F", 0), ("B", 0)]])
