"""08.overlap: correct pipelines in four styles pass; realistic wrong ones fail with the right hint.

The answers are written independently of the solution notebook's (whose stored
PASS nbval compares). Each wrong answer is a mistake a learner is likely to make
with CUDA streams; the checker must name it. On a machine with a GPU the passing
answers also run for real (results, speed, profiler trace).
"""

import functools

import grading_helpers
import pytest
import torch

from d2lgpu.grading import check


def assert_fails(answer, *hint_parts):
    return grading_helpers.assert_fails("08.overlap", answer, *hint_parts)


# ---------------------------------------------------------------------------------------------
# Correct answers, four styles


def with_events_and_record_stream(batches, compute, device):
    compute_stream = torch.cuda.current_stream(device)
    copy_stream = torch.cuda.Stream(device)

    def send(batch):
        with torch.cuda.stream(copy_stream):
            x = batch.to(device, non_blocking=True)
            copied = torch.cuda.Event()
            copied.record()
        return x, copied

    results, ahead = [], send(batches[0])
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


def with_wait_stream_and_kept_references(batches, compute, device):
    pinned = list(batches)  # they arrive pinned
    main = torch.cuda.current_stream(device)
    side = torch.cuda.Stream(device)
    on_device, results = [], []
    with torch.cuda.stream(side):
        on_device.append(pinned[0].to(device, non_blocking=True))
    for i in range(len(pinned)):
        main.wait_stream(side)  # everything copied so far, batch i included
        if i + 1 < len(pinned):
            with torch.cuda.stream(side):
                on_device.append(pinned[i + 1].to(device, non_blocking=True))
        results.append(compute(on_device[i]))
    side.wait_stream(main)  # the copies' memory is reused only after the computes
    return results


def with_two_preallocated_buffers(batches, compute, device):
    main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    shape, dtype = batches[0].shape, batches[0].dtype  # the batches' own dtype: no conversion
    buffers = [torch.empty(shape, dtype=dtype, device=device) for _ in range(2)]
    copied = [torch.cuda.Event(), torch.cuda.Event()]
    used = [torch.cuda.Event(), torch.cuda.Event()]
    side.wait_stream(main)  # the buffers were made on the main stream

    def send(i):
        with torch.cuda.stream(side):
            used[i % 2].wait(side)  # the compute that last read this buffer is done
            buffers[i % 2].copy_(batches[i], non_blocking=True)
            copied[i % 2].record(side)

    send(0)
    results = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            send(i + 1)
        main.wait_event(copied[i % 2])
        results.append(compute(buffers[i % 2]))
        used[i % 2].record(main)
    return results


def with_batch_0_copied_on_the_current_stream(batches, compute, device):
    # Nothing runs before batch 0's copy, so it may go on the compute stream; the rest may not.
    main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
    x = batches[0].to(device, non_blocking=True)
    results = []
    for i in range(len(batches)):
        if i + 1 < len(batches):
            with torch.cuda.stream(side):
                nxt = batches[i + 1].to(device, non_blocking=True)
                copied = side.record_event()
        results.append(compute(x))
        if i + 1 < len(batches):
            main.wait_event(copied)
            nxt.record_stream(main)
            x = nxt
    return results


@pytest.mark.parametrize(
    "answer",
    [
        with_events_and_record_stream,
        with_wait_stream_and_kept_references,
        with_two_preallocated_buffers,
        with_batch_0_copied_on_the_current_stream,
    ],
)
def test_correct_pipelines_pass(answer):
    result = check("08.overlap", answer, quiet=True)
    assert result.ok, str(result)
    assert any("7.0 ms against 12.0 ms" in line for line in result.passed)


def test_the_pass_report_names_each_rule_checked():
    # what the learner reads under PASS, one line per rule, in the order they were checked
    passed = check("08.overlap", with_events_and_record_stream, quiet=True).passed
    assert (
        len(passed) == 5 + torch.cuda.is_available()
    )  # a real GPU's rule last, where there is one
    assert passed[0].startswith("the results are compute(batch i), in order, for 6, 1, 3 and 33")
    assert passed[0].endswith("(on a simulated GPU)")
    assert passed[1].startswith(
        "every batch is copied as it arrives, pinned, with non_blocking=True"
    )
    assert passed[2].startswith("each compute waits on the GPU for its own copy")
    assert passed[3].startswith("the host never waits from the start until the last")
    assert passed[4].startswith("simulated with 1 ms copies and 1 ms computes, 6 batches take")
    assert passed[4].endswith("one after another: the copies overlap the computes")


def test_a_stub_is_not_attempted_and_a_non_function_is_told_so():
    def stub(batches, compute, device):
        raise NotImplementedError("your code here")

    assert check("08.overlap", stub, quiet=True).status == "not attempted"
    result = assert_fails(42, "pass the function itself")
    assert result.hint == "pass the function itself: check('08.overlap', pipelined)"


def test_on_a_gpu_the_answer_also_runs_on_it_after_the_simulated_checks(monkeypatch):
    from d2lgpu.checks import _stream_gpu

    handed = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(_stream_gpu, "check_on_gpu", lambda *args: handed.append(args))
    result = check("08.overlap", with_events_and_record_stream, quiet=True)
    assert result.ok and len(handed) == 1
    answer, passed = handed[0]
    assert answer is with_events_and_record_stream and passed is result.passed


# ---------------------------------------------------------------------------------------------
# Wrong answers


def test_everything_on_the_default_stream_is_named():
    def one_stream(batches, compute, device):
        pinned = list(batches)  # they arrive pinned
        return [compute(b.to(device, non_blocking=True)) for b in pinned]

    assert_fails(one_stream, "the stream its compute runs on", "torch.cuda.Stream")


def test_a_compute_that_does_not_wait_for_its_copy_is_a_race():
    def no_wait(batches, compute, device):
        side, results, kept = torch.cuda.Stream(device), [], []
        for b in batches:
            with torch.cuda.stream(side):
                kept.append(b.to(device, non_blocking=True))
            results.append(compute(kept[-1]))
        side.wait_stream(torch.cuda.current_stream(device))
        return results

    assert_fails(no_wait, "may start before its copy has finished", "wait_stream")


def pipeline_with(extra_in_loop=None, pin=True, non_blocking=True, record=True):
    """The events pipeline with one thing changed."""

    def answer(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        source = [b if pin else b.clone() for b in batches]  # clone(): pageable

        def send(b):
            with torch.cuda.stream(side):
                return b.to(device, non_blocking=non_blocking), side.record_event()

        results, ahead = [], send(source[0])
        for i in range(len(source)):
            x, copied = ahead
            if i + 1 < len(source):
                ahead = send(source[i + 1])
            main.wait_event(copied)
            if record:
                x.record_stream(main)
            results.append(compute(x))
            if extra_in_loop:
                extra_in_loop(results[-1], copied, side)
        return results

    return answer


def test_pageable_copies_of_the_pinned_batches_are_named():
    assert_fails(pipeline_with(pin=False), "pageable memory", "arrive pinned", "clone()")


def test_a_blocking_copy_is_named():
    assert_fails(pipeline_with(non_blocking=False), "without non_blocking=True")


def test_a_freed_copy_without_record_stream_is_named():
    # the first batch that went wrong is the one named
    assert_fails(pipeline_with(record=False), "copy of batch 0 was freed", "record_stream")


@pytest.mark.parametrize(
    "extra, named",
    [
        (lambda y, copied, side: torch.cuda.synchronize(), "torch.cuda.synchronize()"),
        (lambda y, copied, side: y.sum().item(), "item()"),
        (lambda y, copied, side: print(y[0]), "print() of a device tensor"),
        (lambda y, copied, side: copied.synchronize(), "event.synchronize()"),
        (lambda y, copied, side: side.synchronize(), "side stream 1.synchronize()"),
    ],
)
def test_a_host_wait_in_the_loop_is_named(extra, named, capsys):
    assert_fails(pipeline_with(extra_in_loop=extra), "the host waited", named)


def test_results_out_of_order_are_named():
    def shifted(batches, compute, device):
        results = with_events_and_record_stream(batches, compute, device)
        return results[1:] + results[:1]

    assert_fails(shifted, "in the order of the batches")


def test_a_missing_last_batch_is_named():
    def off_by_one(batches, compute, device):
        return with_events_and_record_stream(batches, compute, device)[:-1]

    assert_fails(off_by_one, "results for 6 batches")


def test_a_copy_stream_that_waits_for_the_compute_is_serial():
    def waits_for_compute(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        results = []
        for b in batches:
            with torch.cuda.stream(side):
                side.wait_stream(main)  # "to be safe": the copy waits for the last compute
                x = b.to(device, non_blocking=True)
            main.wait_stream(side)
            x.record_stream(main)
            results.append(compute(x))
        return results

    assert_fails(waits_for_compute, "waits for the compute of batch")


def test_a_compute_on_the_host_batch_is_named():
    def never_copied(batches, compute, device):
        return [compute(b) for b in batches]

    assert_fails(never_copied, "compute got a host tensor")


def test_double_buffers_overwritten_before_their_compute_is_named():
    def no_reuse_guard(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        shape, dtype = batches[0].shape, batches[0].dtype  # the batches' own dtype: no conversion
        buffers = [torch.empty(shape, dtype=dtype, device=device) for _ in range(2)]
        side.wait_stream(main)
        events, results = {}, []

        def send(i):
            with torch.cuda.stream(side):
                buffers[i % 2].copy_(batches[i], non_blocking=True)
                events[i] = side.record_event()

        send(0)
        for i in range(len(batches)):
            if i + 1 < len(batches):
                send(i + 1)
            main.wait_event(events[i])
            results.append(compute(buffers[i % 2]))
        return results

    assert_fails(no_reuse_guard, "may be overwritten")


def test_a_batch_copied_twice_is_named():
    def copies_twice(batches, compute, device):
        for b in batches:  # a "warm-up" copy of every batch
            b.to(device, non_blocking=True)
        return with_events_and_record_stream(batches, compute, device)

    assert_fails(
        copies_twice, "batch 0 was copied to the device twice: each copy holds a copy engine"
    )


# ---------------------------------------------------------------------------------------------
# The rules' edges: which batch goes on which stream, where in the loop a wait is, how many


def copies_on_the_compute_stream_for(batch_index):
    """The events pipeline, but one batch's copy goes on the compute stream (-1: the last)."""

    def answer(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        chosen = batch_index % len(batches)

        def send(i):
            with torch.cuda.stream(main if i == chosen else side):
                x = batches[i].to(device, non_blocking=True)
                return x, torch.cuda.current_stream(device).record_event()

        results, ahead = [], send(0)
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = send(i + 1)
            main.wait_event(copied)
            x.record_stream(main)
            results.append(compute(x))
        return results

    return answer


@pytest.mark.parametrize("batch_index, named", [(1, "batch 1 was copied"), (-1, "batch 5 was")])
def test_any_batch_after_the_first_copied_on_the_compute_stream_is_named(batch_index, named):
    assert_fails(copies_on_the_compute_stream_for(batch_index), named, "the stream its compute")


def test_batch_0_alone_on_the_compute_stream_passes():
    assert check("08.overlap", copies_on_the_compute_stream_for(0), quiet=True).ok


def with_a_wait(where):
    """The events pipeline with torch.cuda.synchronize() at ``where`` ("before", "last", "after")."""

    def answer(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        if where == "before":
            torch.cuda.synchronize(device)  # before the first copy: waits for the earlier work

        def send(b):
            with torch.cuda.stream(side):
                return b.to(device, non_blocking=True), side.record_event()

        results, ahead = [], send(batches[0])
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            main.wait_event(copied)
            x.record_stream(main)
            if where == "last" and i + 1 == len(batches):
                copied.synchronize()  # just before the last compute: still in the loop
            results.append(compute(x))
        if where == "after":
            print(sum(r.sum().item() for r in results))  # reads after the loop: allowed
            torch.cuda.synchronize(device)
        return results

    return answer


def test_a_host_wait_just_before_the_last_compute_is_named():
    assert_fails(with_a_wait("last"), "the host waited (event.synchronize())")


def test_host_waits_after_the_last_compute_pass(capsys):
    result = check("08.overlap", with_a_wait("after"), quiet=True)
    assert result.ok, str(result)


def test_a_host_wait_at_the_start_is_named():
    # torch.cuda.synchronize() "for a clean start" waits for the caller's earlier work
    assert_fails(
        with_a_wait("before"),
        "the host waited (torch.cuda.synchronize()) at the start, before the first copy",
        "all the work the caller queued before the call",
        "wait_stream / wait_event",
    )


def test_the_first_host_wait_of_several_is_named():
    def reads_twice(y, copied, side):
        copied.synchronize()
        y.sum().item()

    result = check("08.overlap", pipeline_with(extra_in_loop=reads_twice), quiet=True)
    assert result.status == "failed" and "(event.synchronize())" in result.hint
    assert "item()" not in result.hint


def test_a_compute_called_twice_per_batch_is_named():
    def warms_up(batches, compute, device):
        def twice(x):
            compute(x)  # a "warm-up" run of every compute
            return compute(x)

        return with_events_and_record_stream(batches, twice, device)

    assert_fails(warms_up, "compute was called 12 times for 6 batches")


def test_a_pipeline_that_overlaps_only_its_last_third_is_named():
    # 6 batches of 1 ms + 1 ms: 10 ms, against 7 pipelined and 12 serial
    def mostly_serial(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        results = []
        for i, b in enumerate(batches):
            with torch.cuda.stream(side):
                if i < 2 * len(batches) // 3:
                    side.wait_stream(main)  # two thirds: each copy after the last compute
                x = b.to(device, non_blocking=True)
            main.wait_stream(side)
            x.record_stream(main)
            results.append(compute(x))
        return results

    assert_fails(mostly_serial, "the copy of batch 1 waits for the compute of batch 0")


def test_results_copied_to_the_host_and_read_before_a_sync_are_named():
    def reads_early(batches, compute, device):
        results = with_events_and_record_stream(batches, compute, device)
        on_host = [r.to("cpu", non_blocking=True) for r in results]  # returns at once
        return [r.clone() for r in on_host]  # read before any sync: stale

    assert_fails(reads_early, "before a sync", "non_blocking=True")


def test_a_missing_wait_hint_counts_the_wrong_results():
    def no_wait(batches, compute, device):
        side, results, kept = torch.cuda.Stream(device), [], []
        for b in batches:
            with torch.cuda.stream(side):
                kept.append(b.to(device, non_blocking=True))
            results.append(compute(kept[-1]))
        side.wait_stream(torch.cuda.current_stream(device))
        return results

    assert_fails(
        no_wait,
        "compute of batch 0 may start before its copy",
        "6 of 6 results were computed from memory the copy had not filled",
    )


def test_an_answer_that_returns_no_list_is_told_what_to_return():
    def forgets_to_return(batches, compute, device):
        with_events_and_record_stream(batches, compute, device)

    def stacks(batches, compute, device):
        return torch.stack(with_events_and_record_stream(batches, compute, device))

    assert_fails(forgets_to_return, "pipelined returned a NoneType: return a list with one result")
    assert_fails(stacks, "pipelined returned a Tensor: return a list with one result")


def test_results_that_are_not_the_computes_are_named():
    def returns_the_copies(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        results = []
        for b in batches:
            with torch.cuda.stream(side):
                x = b.to(device, non_blocking=True)
            main.wait_stream(side)
            x.record_stream(main)
            compute(x)
            results.append(x)  # the batch on the device, not what compute returned
        return results

    def adds_one(batches, compute, device):
        return [y + 1 for y in with_events_and_record_stream(batches, compute, device)]

    result = assert_fails(returns_the_copies, "result 0 is not what compute returned for batch 0")
    assert "order" not in result.hint
    assert assert_fails(adds_one).hint == "result 0 is not compute(batch 0)"


def test_copying_every_batch_before_the_first_compute_overlaps_nothing():
    def copies_first(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        with torch.cuda.stream(side):
            on_device = [b.to(device, non_blocking=True) for b in batches]
        main.wait_stream(side)
        results = [compute(x) for x in on_device]
        side.wait_stream(main)
        return results

    # 6 copies of 1 ms, then 6 computes of 1 ms: as long as one after another
    result = assert_fails(copies_first, "the compute of batch 0 waits for the copy of batch 1 too")
    assert "every copy queued before one wait" in result.hint, result.hint


# The compute passed in is the simulated GPU's: one written in, or kept from a first call, is seen.


def compute_written_in(batches, compute, device):
    def own(x):
        return (x * 1.5).sin().sum(dim=1)  # the formula of the first runs, copied in

    return with_events_and_record_stream(batches, own, device)


_remembered = {}


def compute_remembered(batches, compute, device):
    kept = _remembered.setdefault("compute", compute)  # "set up once", then reused
    return with_wait_stream_and_kept_references(batches, kept, device)


@pytest.mark.parametrize(
    "answer, parts",
    [
        (compute_written_in, ["called 0 times for 6 batches", "the compute passed in"]),
        (compute_remembered, ["called 0 times for 1 batches", "kept from an earlier call"]),
    ],
    ids=["written_in", "remembered"],
)
def test_a_compute_other_than_the_one_passed_is_named(answer, parts):
    _remembered.clear()
    assert_fails(answer, *parts)


class Pipelined:
    """A callable object: the copies on its own side stream, made per call."""

    def __call__(self, batches, compute, device, *, verbose=False):
        results = with_events_and_record_stream(batches, compute, device)
        if verbose:
            print(f"{len(results)} batches pipelined on {device}")
        return results


@pytest.mark.parametrize(
    "answer",
    [Pipelined(), functools.partial(Pipelined(), verbose=True)],
    ids=["callable_object", "partial_with_print"],
)
def test_pipelines_in_other_styles_pass(answer):
    grading_helpers.assert_passes("08.overlap", answer)


def reads_results_back_after_the_loop(batches, compute, device):
    # Reading the results to the host after the loop is allowed: those copies are not the
    # pipeline, and must not count against its overlap.
    return [r.cpu() for r in with_events_and_record_stream(batches, compute, device)]


def test_results_read_back_to_the_host_after_the_loop_pass():
    grading_helpers.assert_passes("08.overlap", reads_results_back_after_the_loop)


def _memcpy(name, stream, ts, dur):
    return {"ph": "X", "cat": "gpu_memcpy", "name": name, "ts": ts, "dur": dur,
            "args": {"stream": stream}}  # fmt: skip


def test_the_real_gpus_trace_counts_only_copies_to_the_device_as_the_pipelines():
    # An H200 run: results read back after the loop (r.cpu()) added copies to the host that no
    # kernel overlapped, and the pipeline was judged by them. Only reads to the device count.
    from d2lgpu.checks._stream_gpu import pipeline_work
    from d2lgpu.streams import overlap_s

    kernel = {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 100, "dur": 900,
              "args": {"stream": 7}}  # fmt: skip
    trace = {
        "traceEvents": [
            _memcpy("Memcpy HtoD (Pinned -> Device)", 97, 0, 100),
            kernel,
            _memcpy("Memcpy HtoD (Pinned -> Device)", 97, 100, 100),  # during the kernel
            _memcpy("Memcpy DtoH (Device -> Pageable)", 7, 1000, 5000),  # after the loop
            _memcpy("Memcpy DtoD (Device -> Device)", 7, 6000, 100),
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 90, "dur": 20},
        ]
    }
    copies, kernels = pipeline_work(trace)
    assert [(iv.lane, round(iv.start * 1e6)) for iv in copies] == [
        ("stream 97", 0),
        ("stream 97", 100),
    ]
    assert [iv.lane for iv in kernels] == ["stream 7"]
    assert overlap_s(copies, kernels) == pytest.approx(100e-6)


# Red-team answers, written from the prompt alone.


def _side_stream_pipeline(prepare, shift=False):
    def answer(batches, compute, device):
        side, cur = torch.cuda.Stream(device), torch.cuda.current_stream(device)

        def send(b):
            with torch.cuda.stream(side):
                return prepare(b).to(device, non_blocking=True), side.record_event()

        out, ahead = [], send(batches[0])
        for i in range(len(batches)):
            x, ev = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            if shift:
                x, ev = ahead  # the prefetched batch's copy, not batch i's
            cur.wait_event(ev)
            x.record_stream(cur)
            out.append(compute(x))
        return out

    return answer


@pytest.mark.parametrize(
    "prepare",
    [
        lambda b: b.contiguous().clone().pin_memory(),
        lambda b: torch.empty_like(b).copy_(b).pin_memory(),
    ],
    ids=["pinned_clone", "pinned_new_buffer"],
)
def test_pinning_in_the_function_is_named(prepare):
    hint = grading_helpers.assert_fails(
        "08.overlap", _side_stream_pipeline(prepare), "called pin_memory() 6 times"
    ).hint
    assert "the batches arrive pinned" in hint and "non_blocking=True" in hint, hint


def test_pinning_a_batch_that_is_already_pinned_is_named_as_the_prompt_asks():
    # pin_memory() of a pinned batch returns it and costs nothing, but the prompt says not to
    # pin in the function: every call is named, as for a pageable tensor.
    hint = grading_helpers.assert_fails(
        "08.overlap", _side_stream_pipeline(lambda b: b.pin_memory()), "called pin_memory() 6 times"
    ).hint
    assert "the prompt asks not to pin in the function" in hint
    assert "pin_memory() of a pinned batch does nothing" in hint, hint


def test_computing_the_prefetched_batch_is_named_not_a_crash():
    hint = grading_helpers.assert_fails(
        "08.overlap", _side_stream_pipeline(lambda b: b, shift=True), "never on batch 0"
    ).hint
    assert hint == (
        "compute ran on batch 5 2 times and never on batch 0: after prefetching batch i + 1, "
        "compute the copy of batch i (keep the two in separate names)"
    )


def test_a_compute_on_the_host_batch_is_named_whole():
    def on_host(batches, compute, device):
        return [compute(b) for b in batches]

    assert grading_helpers.assert_fails("08.overlap", on_host).hint == (
        "compute got a host tensor: call compute on each batch's copy on the device (made with "
        ".to(device, non_blocking=True)), not on the host batch"
    )


# Second red-team round: buffers allocated on the compute stream, computes on the side stream,
# misplaced waits, record_stream given the wrong stream.


def buffers_on_the_compute_stream(when, side_waits=False):
    """Device buffers made with torch.empty on the compute stream (before the loop, or one per
    batch in it), filled with copy_ on the side stream; ``side_waits``: the side stream waits
    for the compute stream after allocating, as it must."""

    def answer(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        made = [torch.empty(b.shape, dtype=b.dtype, device=device) for b in batches]
        upfront = made if when == "before" else []
        if side_waits and when == "before":
            side.wait_stream(main)
        results = []

        def send(i):
            b = batches[i]
            buf = upfront[i] if upfront else torch.empty(b.shape, dtype=b.dtype, device=device)
            if side_waits and not upfront:
                side.wait_stream(main)
            with torch.cuda.stream(side):
                buf.copy_(batches[i], non_blocking=True)
                return buf, side.record_event()

        ahead = send(0)
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = send(i + 1)
            main.wait_event(copied)
            results.append(compute(x))
        return results

    return answer


@pytest.mark.parametrize("when", ["before", "in_the_loop"])
def test_buffers_allocated_on_the_compute_stream_and_filled_on_the_side_stream_need_a_wait(when):
    hint = assert_fails(
        buffers_on_the_compute_stream(when),
        "batch 0's device memory was allocated on default stream while work queued there before",
        "copy 0 on side stream 1 does not wait for that work",
        "wait_stream",
        "record_stream",
    ).hint
    assert "copy_stream = " not in hint and ".wait_stream(" not in hint, hint  # no code given


@pytest.mark.parametrize("when", ["before", "in_the_loop"])
def test_buffers_allocated_on_the_compute_stream_pass_once_the_side_stream_waits(when):
    grading_helpers.assert_passes("08.overlap", buffers_on_the_compute_stream(when, True))


def test_computes_on_the_side_stream_are_named_not_the_copies():
    def all_on_the_side(batches, compute, device):
        side = torch.cuda.Stream(device)
        with torch.cuda.stream(side):
            return [compute(b.to(device, non_blocking=True)) for b in batches]

    def computes_on_the_side(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        results = []
        for b in batches:
            x = b.to(device, non_blocking=True)  # on the current stream
            side.wait_stream(main)
            with torch.cuda.stream(side):
                results.append(compute(x))
        main.wait_stream(side)
        return results

    for answer in (all_on_the_side, computes_on_the_side):
        hint = assert_fails(
            answer, "compute of batch 0 ran on side stream 1, not on the current stream"
        ).hint
        assert "Make a side stream" not in hint, hint


def waits_misplaced(where):
    """The events pipeline with its wait moved ``where``."""

    def answer(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        events, results, kept = [], [], []

        def send(i):
            with torch.cuda.stream(side):
                ev = torch.cuda.Event()
                if where == "event_before_copy":
                    ev.record()  # on side, but before the copy
                kept.append(batches[i].to(device, non_blocking=True))
                if where in ("wait_after_compute", "previous_event", "side_waits_itself"):
                    ev.record()
                if where == "side_waits_itself":
                    ev.wait()  # the current stream, here the side stream, waits
            if where == "event_on_compute_stream":
                ev.record()  # outside the with: on the compute stream
            events.append(ev)

        send(0)
        for i in range(len(batches)):
            if where == "wait_before_copy" and i + 1 < len(batches):
                main.wait_stream(side)  # waits before batch i + 1's copy is queued...
            if i + 1 < len(batches):
                send(i + 1)
            if where == "previous_event":
                main.wait_event(events[max(i - 1, 0)])
            elif where in ("event_before_copy", "event_on_compute_stream"):
                main.wait_event(events[i])
            elif where == "reversed":
                side.wait_stream(main)
            elif where == "other_stream":
                main.wait_stream(torch.cuda.Stream(device))
            elif where == "never_recorded":
                main.wait_event(torch.cuda.Event())
            results.append(compute(kept[i]))
            if where == "wait_after_compute":
                main.wait_event(events[i])
        side.wait_stream(main)
        return results

    return answer


@pytest.mark.parametrize(
    "where, says",
    [
        ("wait_after_compute", "the compute stream waits for its copy only after compute(batch "
         "0) was queued"),
        ("wait_before_copy", "the compute stream waited for side stream 1 before batch 5's copy "
         "was queued there"),
        ("previous_event", "waited for an event recorded on side stream 1 before batch 1's copy "
         "was queued (an earlier batch's, or one recorded before the copy)"),
        ("event_before_copy", "waited for an event recorded on side stream 1 before batch 0's "
         "copy was queued"),
        ("event_on_compute_stream", "the event the compute stream waited for was recorded on "
         "the compute stream itself"),
        ("other_stream", "the compute stream waited for side stream 2, but batch 0 was copied "
         "on side stream 1"),
        ("side_waits_itself", "the wait was made by the copy stream, for its own event"),
        ("never_recorded", "waited for an event that was never recorded"),
        ("reversed", "the only wait between the two streams makes the copy stream wait for the "
         "compute stream"),
    ],
)  # fmt: skip
def test_a_misplaced_wait_is_named_with_where_it_is_and_where_it_must_be(where, says):
    hint = assert_fails(waits_misplaced(where), "may start before its copy has finished", says).hint
    assert "the compute stream does not wait for the copy stream" not in hint, hint
    assert "results were computed from memory the copy had not filled yet" in hint, hint


def test_record_stream_given_the_copy_stream_is_named():
    def records_the_wrong_stream(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        results = []
        for b in batches:
            with torch.cuda.stream(side):
                x = b.to(device, non_blocking=True)
                x.record_stream(
                    torch.cuda.current_stream(device)
                )  # the side stream, inside the with
            main.wait_stream(side)
            results.append(compute(x))
        return results

    assert_fails(
        records_the_wrong_stream,
        "the device copy of batch 0 was freed",
        "record_stream was given side stream 1, but the stream that used it besides side "
        "stream 1 is default stream: record_stream takes the stream that uses the tensor",
    )


def test_no_hint_prints_a_line_of_the_answer():
    # the first FAIL of each kind names the mistake and the API, not the code to paste
    for answer in (
        lambda batches, compute, device: [compute(b) for b in batches],
        lambda batches, compute, device: [compute(b.to(device)) for b in batches],
        pipeline_with(record=False),
        waits_misplaced("reversed"),
    ):
        hint = check("08.overlap", answer, quiet=True).hint
        for code in ("x = batch.to(", "copy_stream = torch", "with torch.cuda.stream(copy_stream)",
                     "x.record_stream(torch", "current_stream().wait_stream("):  # fmt: skip
            assert code not in hint, hint


def test_a_compute_that_also_waits_for_the_next_copy_is_named_not_a_host_wait():
    def one_event_for_all(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        done, kept, results = torch.cuda.Event(), [], []
        with torch.cuda.stream(side):
            kept.append(batches[0].to(device, non_blocking=True))
            done.record()
        for i in range(len(batches)):
            if i + 1 < len(batches):
                with torch.cuda.stream(side):
                    kept.append(batches[i + 1].to(device, non_blocking=True))
                    done.record()  # the same event, now after copy i + 1
            main.wait_event(done)
            results.append(compute(kept[i]))
        side.wait_stream(main)
        return results

    hint = assert_fails(
        one_event_for_all, "the compute of batch 0 waits for the copy of batch 1 too",
        "one event reused for every batch",
    ).hint  # fmt: skip
    assert "host waits" not in hint, hint


def test_polling_an_event_until_it_is_done_is_a_host_wait_named_at_once():
    def polls(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        results = []
        for b in batches:
            with torch.cuda.stream(side):
                x = b.to(device, non_blocking=True)
                copied = side.record_event()
            while not copied.query():  # the host spins until the copy has landed
                pass
            x.record_stream(main)
            results.append(compute(x))
        return results

    assert_fails(polls, "the host waited (event.query() polled until it returned True)")


WAITS = {  # where the wait is: (the batch named, wrong results of 6, why, fix), in full
    "wait_after_compute": (0, 6, "the compute stream waits for its copy only after "
        "compute(batch 0) was queued, and a wait holds back only the work queued after it",
        "Make the compute stream wait before calling compute"),
    "wait_before_copy": (5, 0, "the compute stream waited for side stream 1 before batch 5's "
        "copy was queued there, and a wait covers only what was queued before it",
        "Make it wait after queueing the copy, before computing on the batch"),
    "previous_event": (1, 0, "the compute stream waited for an event recorded on side stream 1 "
        "before batch 1's copy was queued (an earlier batch's, or one recorded before the "
        "copy)", "Record each batch's event after its copy, and wait for that batch's own event"),
    "event_on_compute_stream": (0, 6, "the event the compute stream waited for was recorded on "
        "the compute stream itself (record() uses the current stream: outside the side stream's "
        "`with` block that is the compute stream), so it marks nothing of the copies",
        "Record it on the copy stream, after the copy"),
    "other_stream": (0, 6, "the compute stream waited for side stream 2, but batch 0 was copied "
        "on side stream 1", "Wait for the stream (or an event of the stream) that the copy ran on"),
    "side_waits_itself": (0, 6, "the wait was made by the copy stream, for its own event: "
        "event.wait() and wait_event act on the stream they are given (by default the current "
        "one, the copy stream inside its `with` block), not on the compute stream",
        "Make the compute stream wait for the copy's event"),
    "never_recorded": (0, 6, "the compute stream waited for an event that was never recorded, "
        "which waits for nothing", "Record the event on the copy stream after the copy, then "
        "wait for it"),
    "reversed": (0, 6, "the only wait between the two streams makes the copy stream wait for "
        "the compute stream; nothing makes the compute stream wait for the copy", "Make the "
        "compute stream wait, on the GPU, for the copy (wait_stream, or wait_event on an event "
        "recorded after the copy) before computing on the batch"),
}  # fmt: skip


@pytest.mark.parametrize("where", list(WAITS))
def test_each_misplaced_wait_gets_its_whole_hint(where):
    batch, wrong, why, fix = WAITS[where]
    luck = " (the copies happened to land in time there; a GPU does not promise it)"
    assert check("08.overlap", waits_misplaced(where), quiet=True).hint == (
        f"compute of batch {batch} may start before its copy has finished: {why}. On the "
        f"simulated GPU {wrong} of 6 results were computed from memory the copy had not filled "
        f"yet{luck if wrong == 0 else ''}. {fix}"
    )


def test_record_stream_given_two_wrong_streams_names_both():
    def records_two_wrong_streams(batches, compute, device):
        main, side, other = (torch.cuda.current_stream(device), torch.cuda.Stream(device),
                             torch.cuda.Stream(device))  # fmt: skip
        results = []
        for b in batches:
            with torch.cuda.stream(side):
                x = b.to(device, non_blocking=True)
            x.record_stream(side)
            x.record_stream(other)
            main.wait_stream(side)
            results.append(compute(x))
        return results

    assert check("08.overlap", records_two_wrong_streams, quiet=True).hint == (
        "the device copy of batch 0 was freed (its last reference dropped) while default stream "
        "may still be reading it. It was allocated on side stream 1, so the caching allocator "
        "may give its memory to the next allocation there at once. record_stream was given "
        "side stream 1, side stream 2, but the stream that used it besides side stream 1 is "
        "default stream: record_stream takes the stream that uses the tensor"
    )


def test_the_allocation_and_free_races_get_their_whole_hints():
    allocated = check("08.overlap", buffers_on_the_compute_stream("in_the_loop"), quiet=True)
    assert allocated.hint == (
        "batch 0's device memory was allocated on default stream while work queued there "
        "before (the caller's earlier work) may still run, and copy 0 on side stream 1 does not "
        "wait for that work: the caching allocator gives a stream memory that is free in that "
        "stream's order only, so the copy may write over memory the earlier work still reads. "
        "Make the copy stream wait for default stream after allocating and before copying "
        "(wait_stream; with every buffer allocated before the loop, one wait does), or allocate "
        "on the copy stream and record_stream the tensor for the compute stream"
    )
    assert check("08.overlap", pipeline_with(record=False), quiet=True).hint == (
        "the device copy of batch 0 was freed (its last reference dropped) while default stream "
        "may still be reading it. It was allocated on side stream 1, so the caching allocator "
        "may give its memory to the next allocation there at once. Tell the allocator that "
        "default stream uses it (record_stream), or keep a reference until side stream 1 has "
        "waited for default stream (wait_stream) before returning"
    )
    no_wait = check("08.overlap", waits_misplaced("none"), quiet=True)
    assert no_wait.hint == (
        "compute of batch 0 may start before its copy has finished: the compute stream does not "
        "wait for the copy stream. On the simulated GPU 6 of 6 results were computed from "
        "memory the copy had not filled yet. Make the compute stream wait, on the GPU, for the "
        "copy (wait_stream, or wait_event on an event recorded after the copy) before computing "
        "on the batch"
    )


# ---------------------------------------------------------------------------------------------
# Red-team round 21: a converted batch, cloned results, a hard-coded "cuda"


def events_pipeline(to=lambda b, device: b.to(device, non_blocking=True), after=None):
    """The events pipeline, each batch sent with ``to(b, device)``, each result passed
    through ``after`` (if given) before it is returned."""

    def answer(batches, compute, device):
        main, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)

        def send(b):
            with torch.cuda.stream(side):
                return to(b, device), side.record_event()

        results, ahead = [], send(batches[0])
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            main.wait_event(copied)
            x.record_stream(main)
            y = compute(x)
            results.append(after(y) if after else y)
        return results

    return answer


@pytest.mark.parametrize(
    "to",
    [
        lambda b, device: b.to(device, dtype=torch.float32, non_blocking=True),
        lambda b, device: torch.empty(b.shape, device=device).copy_(b, non_blocking=True),
    ],
    ids=["to_float32", "float32_buffer"],
)
def test_a_batch_converted_to_another_dtype_is_named(to):
    # right for float32 batches only: the check's batches of 3 are float64
    assert_fails(
        events_pipeline(to),
        "result 0 is torch.float32, but batch 0 is torch.float64",
        "compute got a converted batch",
        "Copy each batch as it is",
    )


def test_cloned_results_are_named_as_extra_device_work():
    assert_fails(
        events_pipeline(after=lambda y: y.clone()),
        "result 0 is not the tensor compute returned",
        "(by clone)",
        "an extra kernel per batch",
    )


def test_views_of_the_results_pass():
    assert check("08.overlap", events_pipeline(after=lambda y: y.view(-1)), quiet=True).ok


@pytest.mark.parametrize(
    "to",
    [
        lambda b, device: b.to("cuda", non_blocking=True),
        lambda b, device: b.cuda(non_blocking=True),
    ],
    ids=["to_cuda", "cuda"],
)
def test_copies_to_the_current_gpu_not_the_device_given_are_named(to):
    assert_fails(
        events_pipeline(to),
        "compute got a tensor on cuda:0, but the device passed in was cuda:1",
        'not to "cuda" or with .cuda() alone',
    )


def test_a_new_result_is_named_with_the_first_extra_kernel_or_without_one():
    import weakref
    from types import SimpleNamespace

    from d2lgpu.checks._ch08_results import check_own_results

    class Mode:  # the simulator's mode: every tensor here counts as on the device
        def put(self):
            pass

        def on_device(self, t):
            return True

    own, new = torch.ones(3), torch.zeros(3)

    def kernel(label):
        return SimpleNamespace(kind="kernel", label=label)

    def gpu(*ops):
        return SimpleNamespace(put=Mode().put, made=[weakref.ref(own)], ops=list(ops))

    tail = (
        ": an extra kernel per batch on the compute stream, and every result twice in device "
        "memory. Return compute's results as they are (a clone() is not needed: each result is "
        "memory of its own)"
    )
    check_own_results(gpu(kernel("compute 0")), [own, own.view(3)])  # its own, or a view
    ops = [kernel("compute 0"), SimpleNamespace(kind="copy", label="h2d 1"), kernel("the caller's "
           "earlier work"), kernel("aten::mul"), kernel("aten::add")]  # fmt: skip
    assert grading_helpers.rule_fails(check_own_results, gpu(*ops), [own, new]) == (
        "result 1 is not the tensor compute returned but a new one made from it on the device "
        "(by aten::mul)" + tail
    )
    # made without a kernel (an empty_like, say)
    assert grading_helpers.rule_fails(check_own_results, gpu(*ops[:3]), [new, own]) == (
        "result 0 is not the tensor compute returned but a new one made from it on the device"
        + tail
    )


def test_computes_queued_from_a_thread_of_the_answers_own_are_named():
    from concurrent.futures import ThreadPoolExecutor

    def computes_on_a_worker(batches, compute, device):
        compute_stream = torch.cuda.current_stream(device)
        copy_stream = torch.cuda.Stream(device)
        results = []
        with ThreadPoolExecutor(max_workers=1) as launcher:
            for b in batches:
                with torch.cuda.stream(copy_stream):
                    x = b.to(device, non_blocking=True)
                compute_stream.wait_stream(copy_stream)
                x.record_stream(compute_stream)
                results.append(launcher.submit(compute, x).result())
        return results

    hint = assert_fails(computes_on_a_worker, "not on the current stream").hint
    assert hint.endswith(
        "; it was queued from a thread of your own, whose current stream is its own (each "
        "thread has one, and a new thread's is the default stream): queue the computes from "
        "the thread that called pipelined"
    )


# The last rules called alone, on hand-made runs: a copy and a compute per batch.


def _run(ends, host_waits=(), after=lambda first, follows: False):
    """A simulated run's record: batch i copied (op 2i) then computed (op 2i + 1), the compute
    ending at ``ends[i]`` seconds; ``after`` says whether work after ``follows`` waits for
    ``first``."""
    from types import SimpleNamespace

    ops = []
    for i, end in enumerate(ends):
        ops.append(SimpleNamespace(kind="copy", label=f"copy {i}", id=2 * i, batch=i, end=end,
                                   flags={"direction": "h2d"}, follows={}))  # fmt: skip
        ops.append(SimpleNamespace(kind="kernel", label=f"compute {i}", id=2 * i + 1, batch=i,
                                   end=end, flags={}, follows={}))  # fmt: skip
    # a copy to the host queued first (op -1): not a batch's copy, and not where the loop starts
    back = SimpleNamespace(kind="copy", label="copy back", id=-1, batch=0, end=0.0,
                           flags={"direction": "d2h"}, follows={})  # fmt: skip
    return SimpleNamespace(ops=[back, *ops], host_waits=list(host_waits), after=after)


def test_a_slow_pipeline_no_pair_explains_gets_the_generic_overlap_hint():
    from d2lgpu.checks._util import CheckFailed
    from d2lgpu.checks.ch08_streams import _check_overlap
    from d2lgpu.streams import pipeline_time

    # 2 batches of 50 ms + 50 ms: 150 ms pipelined, 200 ms one after another
    with pytest.raises(CheckFailed) as info:
        _check_overlap(_run([0.1, 0.2]), 2, 0.05, 0.05)
    assert str(info.value) == (
        "on the simulated GPU the copies never ran while a compute ran: 2 batches took 200.0 ms, "
        "one after another 200.0 ms. Queue the copy of batch i + 1 before the host waits for "
        "anything of batch i"
    )
    best = pipeline_time(0.05, 0.05, 2)
    half_way = best + 0.5 * (pipeline_time(0.05, 0.05, 2, overlapped=False) - best)
    _check_overlap(_run([0.1, half_way]), 2, 0.05, 0.05)  # exactly half way to serial: passes
    _check_overlap(_run([0.1, 0.2]), 1, 0.05, 0.05)  # one batch: nothing to overlap


def test_the_last_pair_of_batches_is_judged_for_a_copy_that_waits_for_a_compute():
    from d2lgpu.checks._util import CheckFailed
    from d2lgpu.checks.ch08_streams import _check_overlap

    def copy_waits(first, follows):
        return first.kind == "kernel"

    with pytest.raises(CheckFailed) as info:
        _check_overlap(_run([0.1, 0.2], after=copy_waits), 2, 0.05, 0.05)
    assert str(info.value).startswith(
        "the copy of batch 1 waits for the compute of batch 0 (the copy stream waits for the "
        "compute stream in the loop"
    )


def test_host_waits_are_judged_from_the_first_copy_to_the_last_compute_copies_apart():
    from d2lgpu.checks._util import CheckFailed
    from d2lgpu.checks.ch08_streams import _check_host_waits

    # a blocking copy's own wait, at the start or in the loop, is named with the copies
    _check_host_waits(_run([0.1, 0.2], [("a copy from pageable memory", 0)]))
    _check_host_waits(_run([0.1, 0.2], [("a copy from pageable memory", 2)]))
    with pytest.raises(CheckFailed) as info:
        _check_host_waits(_run([0.1, 0.2], [("__repr__", 0)]))
    assert str(info.value).startswith(
        "the host waited (print() of a device tensor) at the start, before the first copy"
    )


def test_a_compute_on_the_default_stream_queued_from_the_callers_thread_is_told_so():
    from types import SimpleNamespace

    from d2lgpu.checks._ch08_rules import CALLER
    from d2lgpu.checks._util import CheckFailed
    from d2lgpu.checks.ch08_streams import _check_copies

    default, caller = SimpleNamespace(name="default stream"), SimpleNamespace(name=CALLER)
    compute = SimpleNamespace(
        kind="kernel", label="compute 0", batch=0, stream=default, flags={"on_device": True}
    )  # fmt: skip  (no thread recorded)
    gpu = SimpleNamespace(ops=[compute], streams=[default, caller], default=default)
    with pytest.raises(CheckFailed) as info:
        _check_copies(gpu, 1)
    assert str(info.value) == (
        "compute of batch 0 ran on default stream, not on the current stream (the one current "
        "when pipelined was called, here the caller's stream): the caller reads the results "
        "there, and the copies need a stream of their own to overlap the computes. Queue only "
        "the copies inside the side stream's `with torch.cuda.stream` block; "
        "torch.cuda.current_stream() is the current stream, torch.cuda.default_stream() is not "
        "always it"
    )


def test_simulate_calls_the_answer_on_the_default_stream_unless_asked():
    from d2lgpu.checks.ch08_streams import simulate

    seen = []

    def answer(batches, compute, device):
        current = torch.cuda.current_stream(device)
        seen.append((current is torch.cuda.default_stream(device), current.name))
        return [compute(b.to(device, non_blocking=True)) for b in batches]

    simulate(answer, 1, 1e-3, 1e-3)
    simulate(answer, 1, 1e-3, 1e-3, True)
    assert seen == [(True, "default stream"), (False, "the caller's stream")]


def test_a_results_list_kept_between_calls_is_named():
    def kept(batches, compute, device, results=[]):  # noqa: B006 (round 66's w12)
        results += with_events_and_record_stream(batches, compute, device)
        return results

    assert_fails(
        kept, "the list outlives the call (a default argument results=[], a global)",
        "Make a new list in every call",
    )  # fmt: skip
