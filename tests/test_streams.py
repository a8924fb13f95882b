"""d2lgpu.streams: the pipeline arithmetic, timelines, profiler-trace intervals, overlap."""

import json

import pytest

from d2lgpu.streams import (
    Interval,
    format_timeline,
    model_intervals,
    overlap_s,
    pipeline_time,
    trace_intervals,
)


def test_pipeline_time_is_the_sum_serial_and_the_larger_stage_overlapped():
    assert pipeline_time(1.0, 1.0, 8, overlapped=False) == 16.0
    assert pipeline_time(1.0, 1.0, 8) == 9.0
    assert pipeline_time(1.0, 3.0, 4) == 1.0 + 3 * 3.0 + 3.0
    assert pipeline_time(2.0, 0.5, 1) == 2.5  # one batch: nothing to overlap


def test_model_intervals_agree_with_pipeline_time():
    for overlapped in (True, False):
        ivs = model_intervals(1.0, 2.0, 5, overlapped)
        assert max(iv.end for iv in ivs) == pipeline_time(1.0, 2.0, 5, overlapped)
        copies = [iv for iv in ivs if iv.lane == "copy"]
        computes = [iv for iv in ivs if iv.lane == "compute"]
        for copy, compute in zip(copies, computes, strict=True):
            assert compute.start >= copy.end  # each compute after its own copy
        assert (overlap_s(copies, computes) > 0) == overlapped


@pytest.mark.parametrize(
    "call, named",
    [
        (lambda: pipeline_time(-1, 1, 2), "copy_s"),
        (lambda: pipeline_time(1, float("nan"), 2), "compute_s"),
        (lambda: pipeline_time(1, 1, 0), "n_batches"),
        (lambda: pipeline_time(1, 1, 2.5), "n_batches"),
        (lambda: model_intervals(True, 1, 2), "copy_s"),
        (lambda: format_timeline([]), "intervals"),
        (lambda: format_timeline(model_intervals(1, 1, 2), width=3), "width"),
        (lambda: trace_intervals({"events": []}), "trace"),
        (lambda: overlap_s([(0, 1)], []), "a must be a list"),
    ],
)
def test_bad_arguments_are_named(call, named):
    with pytest.raises(ValueError, match=named):
        call()


def test_format_timeline_draws_one_row_per_lane_with_batch_labels():
    # 4 s over 40 columns: 10 columns a second, exact; each interval fills its own columns
    text = format_timeline(model_intervals(1.0, 1.0, 3), width=40)
    assert text == "\n".join(
        [
            "         0                                     4 s",
            "copy    |000000000011111111112222222222          |",
            "compute |          000000000011111111112222222222|",
        ]
    )


def test_format_timeline_keeps_a_short_interval_and_labels_by_their_last_character():
    ivs = [
        Interval("a lane", "batch 12", 0.0, 1.0),
        Interval("b", "", 1.0, 1.001),  # shorter than a column: still one column, "#" unlabelled
        Interval("a lane", "x", 1.4, 2.0),
    ]
    assert format_timeline(ivs, width=10) == "\n".join(
        [
            "        0       2 s",
            "a lane |22222  xxx|",
            "b      |     #    |",
        ]
    )
    shifted = [iv._replace(start=iv.start + 5, end=iv.end + 5) for iv in ivs]
    assert (
        format_timeline(shifted, width=10).splitlines()[1:]
        == format_timeline(ivs, width=10).splitlines()[1:]
    )  # drawn from the first start


def test_trace_intervals_reads_copies_and_kernels_per_stream(tmp_path):
    trace = {
        "traceEvents": [
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 0, "dur": 50},
            {"ph": "X", "cat": "cuda_runtime", "name": "cudaMemcpyAsync", "ts": 1, "dur": 2},
            {"ph": "X", "cat": "gpu_memcpy", "name": "Memcpy HtoD (Pinned -> Device)",
             "ts": 100, "dur": 40, "args": {"stream": 13}},
            {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 120, "dur": 50,
             "args": {"stream": 7}},
            {"ph": "X", "cat": "kernel", "name": "reduce", "ts": 175, "dur": 5, "tid": 7},
        ]
    }  # fmt: skip
    path = tmp_path / "trace.json"
    path.write_text(json.dumps(trace))
    for source in (trace, path, str(path)):
        ivs = trace_intervals(source)
        assert [(iv.lane, iv.label) for iv in ivs] == [
            ("stream 13", "copy"),
            ("stream 7", "kernel"),
            ("stream 7", "kernel"),
        ]
        copies = [iv for iv in ivs if iv.label == "copy"]
        kernels = [iv for iv in ivs if iv.label == "kernel"]
        assert overlap_s(copies, kernels) == pytest.approx(20e-6)
    assert trace_intervals({"traceEvents": trace["traceEvents"][:2]}) == []  # CPU work only


def test_overlap_s_merges_overlapping_intervals_first():
    a = [Interval("a", "", 0, 2), Interval("a", "", 1, 3), Interval("a", "", 10, 11)]
    b = [Interval("b", "", 2.5, 10.5)]
    assert overlap_s(a, b) == pytest.approx(0.5 + 0.5)
    assert overlap_s(a, []) == 0.0
