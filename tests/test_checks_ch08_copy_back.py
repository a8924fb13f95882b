"""08.copy_back: pipelines that copy results back without a stall pass; realistic wrong ones
fail with a hint that names the mistake.

The answers are written independently of the solution notebook's (whose stored PASS nbval
compares). Each wrong answer is a mistake a learner is likely to make once results must reach
the host through two pinned buffers, among them the chapter's own code pasted. On a machine
with a GPU the passing answers also run for real; here the real-GPU part runs only against
fakes (a hand-made trace, and the CPU standing in for the device).
"""

import grading_helpers
import pytest
import torch

from d2lgpu.grading import check


def assert_fails(answer, *hint_parts):
    return grading_helpers.assert_fails("08.copy_back", answer, *hint_parts)


def assert_passes(answer):
    return grading_helpers.assert_passes("08.copy_back", answer)


# ---------------------------------------------------------------------------------------------
# The chapter's code, as section 8.4 and 8.8 have it


def send(batch, copy_stream, device):
    with torch.cuda.stream(copy_stream):
        x = batch.to(device, non_blocking=True)
        return x, copy_stream.record_event()


def overlapped(batches, compute, device, copy_stream=None):
    compute_stream = torch.cuda.current_stream(device)
    if copy_stream is None:
        copy_stream = torch.cuda.Stream(device)
    results, ahead = [], send(batches[0], copy_stream, device)
    for i in range(len(batches)):
        x, copied = ahead
        if i + 1 < len(batches):
            ahead = send(batches[i + 1], copy_stream, device)
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        results.append(compute(x))
    return results


def results_to_host(batches, compute, device, wait):
    back_stream = torch.cuda.Stream(device)

    def compute_and_send(x):
        y = compute(x)
        back_stream.wait_stream(torch.cuda.current_stream(device))
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            return y.to("cpu", non_blocking=True)

    on_host = overlapped(batches, compute_and_send, device)
    if wait:
        copied = back_stream.record_event()
        copied.synchronize()
    return [y.clone() for y in on_host]


# ---------------------------------------------------------------------------------------------
# A configurable pipeline: each wrong answer below changes one thing


def pipeline(
    lag=1,
    back_on="own",
    back_waits=True,
    record=True,
    blocking_back=False,
    wait_landed=True,
    loop_wait=None,
    hand_last=True,
    index_shift=0,
    in_after_back=False,
):
    """Copies in on a side stream; results copied back into buffers[i % 2] on ``back_on``
    ("own", "compute", "copy"), then consumed ``lag`` results later. With ``in_after_back``,
    each batch is copied in only after the result before it was copied back."""

    def answer(batches, compute, device, buffers, consume):
        n = len(batches)
        cur, side = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        back = {"own": torch.cuda.Stream(device), "compute": cur, "copy": side}[back_on]
        ahead, pending = send(batches[0], side, device), []

        def hand_over():
            i, landed = pending.pop(0)
            if wait_landed:
                landed.synchronize()
            consume(i, buffers[(i + index_shift) % 2])

        for i in range(n):
            x, copied = ahead
            if i + 1 < n and not in_after_back:
                ahead = send(batches[i + 1], side, device)
            cur.wait_event(copied)
            x.record_stream(cur)
            if back_waits == "early":  # before the compute is queued: it covers compute i - 1
                back.wait_stream(cur)
            y = compute(x)
            if back_waits is True:
                back.wait_stream(cur)
            with torch.cuda.stream(back):
                if record:
                    y.record_stream(back)
                buffers[i % 2].copy_(y, non_blocking=not blocking_back)
                pending.append((i, back.record_event()))
            if i + 1 < n and in_after_back:
                side.wait_stream(back)
                ahead = send(batches[i + 1], side, device)
            if loop_wait is not None:
                loop_wait(y)
            while len(pending) > lag:
                hand_over()
        while pending and hand_last:
            hand_over()

    return answer


# ---------------------------------------------------------------------------------------------
# Correct answers, in styles other than the solution's


def kept_references_and_consume_before_the_copy_back(batches, compute, device, buffers, consume):
    """wait_stream instead of events; results kept in a dict until consumed instead of
    record_stream; result i - 1 handed over before result i's copy back is queued."""
    main, copier, returner = (
        torch.cuda.current_stream(device),
        torch.cuda.Stream(device),
        torch.cuda.Stream(device),
    )
    on_device, alive, done = [], {}, {}
    with torch.cuda.stream(copier):
        on_device.append(batches[0].to(device, non_blocking=True))
    for i in range(len(batches)):
        main.wait_stream(copier)
        if i + 1 < len(batches):
            with torch.cuda.stream(copier):
                on_device.append(batches[i + 1].to(device, non_blocking=True))
        alive[i] = compute(on_device[i])
        if i > 0:
            done[i - 1].synchronize()  # the copy of result i - 1, which ran during compute i
            consume(i - 1, buffers[(i - 1) % 2])
            del alive[i - 1]  # its copy is done: its memory may go
        returner.wait_stream(main)
        with torch.cuda.stream(returner):
            buffers[i % 2].copy_(alive[i], non_blocking=True)
            done[i] = torch.cuda.Event()
            done[i].record()
    last = len(batches) - 1
    returner.synchronize()
    consume(last, buffers[last % 2])
    copier.wait_stream(main)  # the batches' memory is reused only after the computes


def built_on_the_chapters_overlapped(batches, compute, device, buffers, consume):
    """The chapter's overlapped, with a compute that also sends the result back and hands
    over the one before."""
    back = torch.cuda.Stream(device)
    queue = []

    def compute_and_return(x):
        i = len(queue)
        y = compute(x)
        back.wait_stream(torch.cuda.current_stream(device))
        with torch.cuda.stream(back):
            y.record_stream(back)
            buffers[i % 2].copy_(y, non_blocking=True)
            queue.append(back.record_event())
        if i > 0:
            queue[i - 1].synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
        return None

    overlapped(batches, compute_and_return, device)
    queue[-1].synchronize()
    consume(len(queue) - 1, buffers[(len(queue) - 1) % 2])


@pytest.mark.parametrize(
    "answer",
    [
        pipeline(),
        kept_references_and_consume_before_the_copy_back,
        built_on_the_chapters_overlapped,
    ],
    ids=["events_and_record_stream", "kept_references", "built_on_overlapped"],
)
def test_correct_pipelines_pass(answer):
    result = assert_passes(answer)
    assert any("(all three stages overlapped: 8.0 ms" in line for line in result.passed), result


def test_the_pass_report_names_each_rule_checked():
    passed = check("08.copy_back", pipeline(), quiet=True).passed
    assert (
        len(passed) == 5 + torch.cuda.is_available()
    )  # a real GPU's rule last, where there is one
    assert passed[0].startswith("consume(i, buffer) called once per batch, in order")
    assert passed[1].startswith("copies to the device beside the computes, copies back")
    assert passed[2].startswith("no buffer copied into before its result was consumed")
    assert passed[3].startswith("in the loop the host never reads device data")
    assert passed[4].startswith("simulated with 1 ms per stage, 6 batches take 8.1 ms")


def test_a_stub_is_not_attempted_and_a_non_function_is_told_so():
    assert check("08.copy_back", grading_helpers.stub, quiet=True).status == "not attempted"
    assert assert_fails(42).hint == (
        "pass the function itself: check('08.copy_back', pipelined_to_host)"
    )


def test_on_a_gpu_the_answer_also_runs_on_it_after_the_simulated_checks(monkeypatch):
    from d2lgpu.checks import _copy_back_gpu

    handed = []
    monkeypatch.setattr(torch.cuda, "is_available", lambda: True)
    monkeypatch.setattr(_copy_back_gpu, "check_on_gpu", lambda *args: handed.append(args))
    answer = pipeline()
    result = check("08.copy_back", answer, quiet=True)
    assert result.ok and len(handed) == 1
    assert handed[0][0] is answer and handed[0][1] is result.passed


# ---------------------------------------------------------------------------------------------
# The chapter's code, pasted: none of it solves the exercise


def test_the_chapters_overlapped_pasted_unchanged_is_told_the_signature():
    hint = assert_fails(overlapped, "takes five arguments").hint
    assert "(batches, compute, device, buffers, consume)" in hint, hint


def test_overlapped_whose_results_are_returned_not_consumed_is_named():
    def returns_results(batches, compute, device, buffers, consume):
        return overlapped(batches, compute, device)

    assert_fails(returns_results, "consume was never called", "return value is not used")


def test_results_to_host_with_new_pinned_memory_per_result_is_named():
    def fresh_pinned_memory(batches, compute, device, buffers, consume):
        for i, y in enumerate(results_to_host(batches, compute, device, wait=True)):
            consume(i, y)

    assert_fails(fresh_pinned_memory, "consume(0, ...) got a tensor that is not one of buffers")


def test_results_to_host_copied_into_the_buffers_on_the_host_is_named():
    def copied_on_the_host(batches, compute, device, buffers, consume):
        for i, y in enumerate(results_to_host(batches, compute, device, wait=True)):
            buffers[i % 2].copy_(y)
            consume(i, buffers[i % 2])

    assert_fails(copied_on_the_host, "result 0 was copied to the host into new pinned memory")


# ---------------------------------------------------------------------------------------------
# Wrong answers: each names its mistake


def test_waiting_for_the_copy_just_queued_stalls_the_gpu_and_is_named():
    hint = assert_fails(pipeline(lag=0), "the newest one queued", "before queueing compute 1").hint
    assert "(event.synchronize())" in hint and "GPU stands idle" in hint, hint


def test_a_device_synchronize_in_the_loop_is_named():
    def sync(y):
        torch.cuda.synchronize()

    assert_fails(pipeline(loop_wait=sync), "the host waited (torch.cuda.synchronize())")


@pytest.mark.parametrize(
    ("read", "named"),
    [
        (lambda y: y.cpu(), "(.cpu())"),
        (lambda y: y.sum().item(), "(item())"),
        (print, "print() of a device tensor"),
    ],
    ids=["cpu", "item", "print"],
)
def test_a_read_of_device_data_in_the_loop_is_a_sync_and_is_named(read, named, capsys):
    hint = assert_fails(pipeline(loop_wait=read), "a sync in the loop", named).hint
    assert "non_blocking" in hint, hint


def test_a_blocking_copy_back_is_a_sync_in_the_loop():
    assert_fails(
        pipeline(blocking_back=True),
        "a sync in the loop",
        "(a copy_ to the host without non_blocking",
    )


def test_copies_back_on_the_compute_stream_are_named():
    hint = assert_fails(pipeline(back_on="compute"), "result 0 was copied back to the host").hint
    assert "the stream the computes run on" in hint and "compute 1 waits behind" in hint, hint


def test_copies_back_sharing_the_stream_of_the_copies_in_are_too_slow_and_named():
    hint = assert_fails(
        pipeline(back_on="copy"), "The copies back share side stream 1 with the copies"
    ).hint
    assert "all three overlapped take 8.0 ms" in hint and "one after another 18.0 ms" in hint, hint


def test_a_copy_back_that_does_not_wait_for_its_compute_is_a_race():
    hint = assert_fails(pipeline(back_waits=False), "the copy of result 0 to the host").hint
    assert "before compute 0 has finished" in hint and "wait_stream" in hint, hint
    assert ": side stream 2 does not wait for default stream, so" in hint, hint


def test_a_copy_back_that_waited_before_its_compute_was_queued_is_told_so():
    # the wait is there, once per batch, but covers only what was queued before it
    hint = assert_fails(pipeline(back_waits="early"), "the copy of result 0 to the host").hint
    assert "side stream 2's waits for default stream do not cover compute 0: a wait " in hint
    assert (
        "covers only the work queued on default stream before it, and holds only the work "
        "queued on side stream 2 after it" in hint
    ), hint
    assert "does not wait" not in hint, hint


def test_a_result_freed_without_record_stream_is_named():
    hint = assert_fails(pipeline(record=False), "device memory was freed").hint
    assert "its copy to the host on side stream 2" in hint and "record_stream" in hint, hint


def test_a_result_consumed_before_its_copy_landed_is_named():
    hint = assert_fails(pipeline(wait_landed=False), "result 0 was handed to consume before").hint
    assert "synchronize an Event recorded after it" in hint, hint


def test_a_buffer_copied_into_before_its_result_was_consumed_is_named():
    hint = assert_fails(pipeline(lag=2), "the copy of result 2 into buffers[0]").hint
    assert "before result 0" in hint and "has not read yet" in hint, hint


def test_the_wrong_buffer_handed_to_consume_is_named():
    hint = assert_fails(pipeline(index_shift=1), "consume(0, buffers[1]): result 0 was copied").hint
    assert "into buffers[0]. Hand consume the buffer that result's copy went into" in hint, hint


def test_a_last_result_never_handed_over_is_named():
    assert_fails(pipeline(hand_last=False), "consume was called with the indices [0, 1, 2, 3, 4]")


def test_copies_in_on_the_compute_stream_are_named():
    def no_side_stream(batches, compute, device, buffers, consume):
        back, pending = torch.cuda.Stream(device), None
        for i, b in enumerate(batches):
            y = compute(b.to(device, non_blocking=True))
            back.wait_stream(torch.cuda.current_stream(device))
            with torch.cuda.stream(back):
                y.record_stream(back)
                buffers[i % 2].copy_(y, non_blocking=True)
                landed = back.record_event()
            if pending is not None:
                pending[1].synchronize()
                consume(pending[0], buffers[pending[0] % 2])
            pending = (i, landed)
        pending[1].synchronize()
        consume(pending[0], buffers[pending[0] % 2])

    assert_fails(no_side_stream, "batch 1 was copied to the device on default stream")


_WRONG = {
    "stall": pipeline(lag=0),
    "back_on_compute": pipeline(back_on="compute"),
    "back_on_copy": pipeline(back_on="copy"),
    "no_back_wait": pipeline(back_waits=False),
    "no_record": pipeline(record=False),
    "not_landed": pipeline(wait_landed=False),
    "reused": pipeline(lag=2),
    "wrong_buffer": pipeline(index_shift=1),
    "blocking": pipeline(blocking_back=True),
}


@pytest.mark.parametrize("answer", list(_WRONG.values()), ids=list(_WRONG))
def test_no_hint_quotes_a_line_of_the_worked_answer(answer):
    from test_checks import _solution_code

    hint = assert_fails(answer).hint
    quoted = [piece for piece in _solution_code("08_streams.ipynb") if piece in hint]
    assert quoted == [], f"{hint!r} quotes {quoted}"


# ---------------------------------------------------------------------------------------------
# The real-GPU part, against fakes


def _memcpy(name, stream, ts, dur):
    return {"ph": "X", "cat": "gpu_memcpy", "name": name, "ts": ts, "dur": dur,
            "args": {"stream": stream}}  # fmt: skip


def test_the_real_gpus_trace_judges_the_copies_to_the_host():
    from d2lgpu.checks._copy_back_gpu import copy_back_work
    from d2lgpu.streams import overlap_s

    kernel = {"ph": "X", "cat": "kernel", "name": "gemm", "ts": 100, "dur": 900,
              "args": {"stream": 7}}  # fmt: skip
    trace = {
        "traceEvents": [
            _memcpy("Memcpy HtoD (Pinned -> Device)", 97, 0, 100),
            kernel,
            _memcpy("Memcpy DtoH (Device -> Pinned)", 99, 500, 200),  # during the kernel
            _memcpy("Memcpy DtoH (Device -> Pinned)", 99, 1000, 200),  # after it
            _memcpy("Memcpy DtoD (Device -> Device)", 7, 1300, 100),
            {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "ts": 90, "dur": 20},
        ]
    }
    back, kernels = copy_back_work(trace)
    assert [(iv.lane, round(iv.start * 1e6)) for iv in back] == [
        ("stream 99", 500),
        ("stream 99", 1000),
    ]
    assert [iv.lane for iv in kernels] == ["stream 7"]
    assert overlap_s(back, kernels) == pytest.approx(200e-6)


def test_the_real_gpus_result_check_with_the_cpu_standing_in(monkeypatch):
    # No GPU here: the CPU stands in for the device and synchronize does nothing. The serial
    # loop is the reference, so it passes; an answer that consumes out of order fails.
    from d2lgpu.checks import _copy_back_gpu
    from d2lgpu.grading import CheckFailed

    monkeypatch.setattr(torch.cuda, "synchronize", lambda *args: None)
    host = [torch.randn(4, 3) for _ in range(3)]
    buffers = [torch.empty(4, 3) for _ in range(2)]
    cpu = torch.device("cpu")
    _copy_back_gpu._check_results(_copy_back_gpu.serial_loop, host, buffers, torch.tanh, cpu)
    given = []  # the device each answer is run with: the one the check was given

    def on_the_device_given(batches, compute, device, buffers, consume):
        given.append(device)
        _copy_back_gpu.serial_loop(batches, compute, device, buffers, consume)

    _copy_back_gpu._check_results(on_the_device_given, host, buffers, torch.tanh, cpu)
    assert given == [cpu]

    def backwards(batches, compute, device, buffers, consume):
        for i in reversed(range(len(batches))):
            buffers[0].copy_(compute(batches[i]))
            consume(i, buffers[0])

    with pytest.raises(CheckFailed) as failed:
        _copy_back_gpu._check_results(backwards, host, buffers, torch.tanh, cpu)
    assert str(failed.value) == (
        "on this GPU, consume was called with the indices [2, 1, 0]: once per batch, in order, "
        "0 to 2"
    )

    def stale(batches, compute, device, buffers, consume):
        for i in range(len(batches)):
            consume(i, buffers[i % 2])  # before any copy into it

    with pytest.raises(CheckFailed) as failed:
        _copy_back_gpu._check_results(stale, host, [torch.zeros(4, 3)] * 2, torch.tanh, cpu)
    assert str(failed.value) == (
        "on this GPU, result 0 as consume read it differs from a serial loop's: its copy to the "
        "host may not have landed when consume read it (wait for an event recorded after the "
        "copy), or a buffer was copied into before its result was consumed, or a copy read a "
        "result its compute had not written (a missing wait on the GPU), or its memory was "
        "reused too early (record_stream)"
    )


# ---------------------------------------------------------------------------------------------
# Red-team answers, written from the exercise's prompt and chapter 8 alone


def hands_over_what_query_says_landed(batches, compute, device, buffers, consume):
    """Results handed over as soon as query() says their copy is done; a wait is forced
    only when a buffer is needed again, or at the end."""
    cur = torch.cuda.current_stream(device)
    s_in, s_out = torch.cuda.Stream(device), torch.cuda.Stream(device)
    pending = []  # (i, event after its copy back)

    def drain(force_until):
        while pending and (pending[0][0] <= force_until or pending[0][1].query()):
            i, ev = pending.pop(0)
            ev.synchronize()
            consume(i, buffers[i % 2])

    with torch.cuda.stream(s_in):
        ahead = batches[0].to(device, non_blocking=True)
    for i in range(len(batches)):
        cur.wait_stream(s_in)
        x = ahead
        x.record_stream(cur)
        if i + 1 < len(batches):
            with torch.cuda.stream(s_in):
                ahead = batches[i + 1].to(device, non_blocking=True)
        y = compute(x)
        drain(force_until=i - 2)  # buffer i % 2 held result i - 2
        s_out.wait_stream(cur)
        with torch.cuda.stream(s_out):
            y.record_stream(s_out)
            buffers[i % 2].copy_(y, non_blocking=True)
            pending.append((i, s_out.record_event()))
    drain(force_until=len(batches))


def copy_back_after_an_event_on_the_compute_stream(batches, compute, device, buffers, consume):
    """The copy back waits for an event recorded after the compute; result i - 1 is handed
    over before result i's copy back is queued."""
    cur = torch.cuda.current_stream(device)
    up, down = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def up_copy(b):
        with torch.cuda.stream(up):
            t = b.to(device, non_blocking=True)
        return t, up.record_event()

    ahead, last_copy = up_copy(batches[0]), None
    for i in range(len(batches)):
        x, ev = ahead
        if i + 1 < len(batches):
            ahead = up_copy(batches[i + 1])
        cur.wait_event(ev)
        x.record_stream(cur)
        y = compute(x)
        computed = cur.record_event()
        if last_copy is not None:
            last_copy.synchronize()
            consume(i - 1, buffers[(i - 1) % 2])
        down.wait_event(computed)
        with torch.cuda.stream(down):
            y.record_stream(down)
            buffers[i % 2].copy_(y, non_blocking=True)
            last_copy = down.record_event()
    last_copy.synchronize()
    consume(len(batches) - 1, buffers[(len(batches) - 1) % 2])


def _lagged(copy_back, wait, *, peek=False, which=lambda i: i % 2):
    """Copies in as in 8.4; ``copy_back(i, y, back, buffers)`` queues result i's copy back and
    returns an event; result i - 1 is handed over, in ``buffers[which(i - 1)]``, after
    ``wait(event, compute_stream)``."""

    def answer(batches, compute, device, buffers, consume):
        cur, cs = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        back = torch.cuda.Stream(device)
        ahead, waiting = send(batches[0], cs, device), None
        for i in range(len(batches)):
            x, ev = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1], cs, device)
            cur.wait_event(ev)
            x.record_stream(cur)
            y = compute(x)
            back.wait_stream(cur)
            landed = copy_back(i, y, back, buffers)
            if peek:
                buffers[i % 2].sum()  # a look at the buffer "for debugging"
            if waiting is not None:
                wait(waiting[1], cur)
                consume(waiting[0], buffers[which(waiting[0])])
            waiting = (i, landed)
        wait(waiting[1], cur)
        consume(waiting[0], buffers[which(waiting[0])])

    return answer


def _into(which):
    def copy_back(i, y, back, buffers):
        with torch.cuda.stream(back):
            y.record_stream(back)
            buffers[which(i)].copy_(y, non_blocking=True)
        event = torch.cuda.Event()
        event.record(back)
        return event

    return copy_back


def _event_on_the_current_stream(i, y, back, buffers):
    with torch.cuda.stream(back):
        y.record_stream(back)
        buffers[i % 2].copy_(y, non_blocking=True)
    event = torch.cuda.Event()
    event.record()  # on the current stream, the computes': it does not follow the copy back
    return event


def _poll(event, compute_stream):
    while not event.query():  # the host polls until the copy back has landed
        pass


@pytest.mark.parametrize(
    "answer",
    [
        hands_over_what_query_says_landed,
        copy_back_after_an_event_on_the_compute_stream,
        _lagged(_into(lambda i: i % 2), _poll),
    ],
    ids=["query", "wait_event_after_the_compute", "polling_query"],
)
def test_red_team_pipelines_in_other_styles_pass(answer):
    assert_passes(answer)


def test_a_look_at_a_buffer_before_its_copy_landed_is_named():
    # It passed before: only consume's reads were held to the copy's landing.
    answer = _lagged(_into(lambda i: i % 2), lambda ev, cur: ev.synchronize(), peek=True)
    hint = assert_fails(answer, "the host read a buffer while the copy of result 0").hint
    assert "outside consume" in hint, hint


def test_an_event_recorded_on_the_compute_stream_does_not_cover_the_copy_back():
    answer = _lagged(_event_on_the_current_stream, lambda ev, cur: ev.synchronize())
    hint = assert_fails(answer, "result 0 was handed to consume before the host knew").hint
    assert "on the stream that made it" in hint, hint


def test_a_wait_for_the_compute_stream_is_neither_the_copy_nor_in_time():
    answer = _lagged(_into(lambda i: i % 2), lambda ev, cur: cur.synchronize())
    assert_fails(answer, "result 0 was handed to consume before the host knew")


def test_one_buffer_copied_into_before_its_result_was_consumed_is_named():
    answer = _lagged(_into(lambda i: 0), lambda ev, cur: ev.synchronize(), which=lambda i: 0)
    assert_fails(answer, "the copy of result 1 into buffers[0] was queued before result 0")


def test_everything_handed_over_after_one_final_sync_is_named():
    def all_at_the_end(batches, compute, device, buffers, consume):
        cur, bs = torch.cuda.current_stream(device), torch.cuda.Stream(device)
        for i, b in enumerate(batches):
            with torch.cuda.stream(bs):
                x = b.to(device, non_blocking=True)
            cur.wait_stream(bs)
            x.record_stream(cur)
            y = compute(x)
            bs.wait_stream(cur)
            with torch.cuda.stream(bs):
                y.record_stream(bs)
                buffers[i % 2].copy_(y, non_blocking=True)
        torch.cuda.synchronize()
        for i in range(len(batches)):
            consume(i, buffers[i % 2])

    assert_fails(all_at_the_end, "the copy of result 2 into buffers[0] was queued before result 0")


def test_a_clone_of_the_buffer_handed_to_consume_is_named():
    answer = _lagged(_into(lambda i: i % 2), lambda ev, cur: ev.synchronize())

    def clones(batches, compute, device, buffers, consume):
        answer(batches, compute, device, buffers, lambda i, b: consume(i, b.clone()))

    assert_fails(clones, "consume(0, ...) got a tensor that is not one of buffers (new memory")


def next_copy_in_after_the_hosts_wait(batches, compute, device, buffers, consume):
    """Right in every step but one: batch i + 1 goes to the device only after the host has
    waited for result i - 1, so that copy cannot run beside compute i. On the simulated GPU
    it is only 25% slower than the best overlap, under the timing check's line."""
    compute_stream = torch.cuda.current_stream(device)
    copy_stream, back_stream = torch.cuda.Stream(device), torch.cuda.Stream(device)

    def send(b):
        with torch.cuda.stream(copy_stream):
            return b.to(device, non_blocking=True), copy_stream.record_event()

    ahead, pending = send(batches[0]), None
    for i in range(len(batches)):
        x, copied = ahead
        compute_stream.wait_event(copied)
        x.record_stream(compute_stream)
        y = compute(x)
        buf = buffers[i % 2]
        back_stream.wait_stream(compute_stream)
        with torch.cuda.stream(back_stream):
            y.record_stream(back_stream)
            buf.copy_(y, non_blocking=True)
            landed = back_stream.record_event()
        if pending is not None:
            pending[2].synchronize()
            consume(pending[0], pending[1])
        pending = (i, buf, landed)
        if i + 1 < len(batches):
            ahead = send(batches[i + 1])
    pending[2].synchronize()
    consume(pending[0], pending[1])


def test_the_next_copy_in_queued_after_the_hosts_wait_is_named():
    assert_fails(
        next_copy_in_after_the_hosts_wait,
        "before batch 2 was copied to the device, so that copy cannot run beside compute 1",
        "Queue the next batch's copy in before the host waits",
    )


# ---------------------------------------------------------------------------------------------
# Round 4: the caller's own stream current, and one copy for every batch


def test_the_default_stream_taken_for_the_current_one_is_named():
    """Right only while the caller's current stream is the default one: the check also calls
    the function inside `with torch.cuda.stream(s)`."""

    def default_as_current(batches, compute, device, buffers, consume):
        real = torch.cuda.current_stream
        torch.cuda.current_stream = torch.cuda.default_stream  # the mistake, in every call
        try:
            pipeline()(batches, compute, device, buffers, consume)
        finally:
            torch.cuda.current_stream = real

    assert_fails(
        default_as_current,
        "compute of batch 0 may start before what it reads is written: default stream was "
        "made to wait for side stream",
        "runs on the caller's stream (torch.cuda.default_stream() is the current stream only",
        "torch.cuda.current_stream()",
    )


def test_one_copy_of_every_batch_joined_is_named():
    def one_big_copy(batches, compute, device, buffers, consume):
        side, back = torch.cuda.Stream(device), torch.cuda.Stream(device)
        cur = torch.cuda.current_stream(device)
        with torch.cuda.stream(side):
            whole = torch.stack(batches).to(device, non_blocking=True)
        cur.wait_stream(side)
        whole.record_stream(cur)
        for i, x in enumerate(whole.unbind(0)):
            y = compute(x)
            back.wait_stream(cur)
            with torch.cuda.stream(back):
                y.record_stream(back)
                buffers[i % 2].copy_(y, non_blocking=True)
                done = back.record_event()
            done.synchronize()
            consume(i, buffers[i % 2])

    assert_fails(
        one_big_copy,
        "1 copy to the device for 6 batches: a copy that carries several batches",
        "torch.stack",
    )


# ---------------------------------------------------------------------------------------------
# Each rule's hint, whole: what a learner reads when only that rule is broken


def _hands_over_with(change):
    """The right pipeline, with ``change(i, buffer, consume)`` standing between it and consume."""

    def answer(batches, compute, device, buffers, consume):
        pipeline()(batches, compute, device, buffers, lambda i, b: change(i, b, consume))

    return answer


def _consumes_the_device_result(batches, compute, device, buffers, consume):
    for i, batch in enumerate(batches):
        consume(i, compute(batch.to(device, non_blocking=True)))


def _the_result_before():
    """The right pipeline, handing over result i - 1's values as result i."""
    kept = []

    def change(i, buffer, consume):
        if i == 0:  # a new run of the checker
            kept.clear()
        kept.append(buffer.clone())
        if i > 0:
            buffer.copy_(kept[i - 1])
        consume(i, buffer)

    return _hands_over_with(change)


def _twice(batches, compute, device, buffers, consume):
    def compute_twice(x):
        compute(x)
        return compute(x)

    pipeline()(batches, compute_twice, device, buffers, consume)


def _computes_on_the_host(batches, compute, device, buffers, consume):
    for i, batch in enumerate(batches):
        buffers[i % 2].copy_(compute(batch))
        consume(i, buffers[i % 2])


def _four_arguments(batches, compute, device, buffers):
    pass


WHOLE_HINTS = {
    "copies in after copies back": (
        pipeline(in_after_back=True),  # no shared stream: the copies in wait needlessly
        "on the simulated GPU, 6 batches with 1 ms copies in, 1 ms computes and 1 ms copies "
        "back took 18.0 ms: all three overlapped take 8.0 ms, one after another 18.0 ms. Look "
        "at the timeline (print(gpu.timeline()) inside simulated_cuda) for a stage that waits "
        "for another it does not need",
    ),
    "four arguments": (
        _four_arguments,
        "pipelined_to_host takes five arguments, (batches, compute, device, buffers, consume): "
        "the batches, the compute, the device as in exercise 8.1, then the two pinned buffers "
        "to copy results into and the function to hand each result to",
    ),
    "never consumed": (
        lambda batches, compute, device, buffers, consume: None,
        "consume was never called for 6 batches: the function's return value is not used. "
        "Hand each result to the host with consume(i, buffer), once per batch, in order, the "
        "buffer holding compute(batch i)",
    ),
    "a device tensor consumed": (
        _consumes_the_device_result,
        "consume(0, ...) got a device tensor: the host reads results only from the two pinned "
        "buffers given. Copy each result into one of them from the device, non-blocking, and "
        "hand that buffer to consume (new pinned memory per result, as .to('cpu', "
        "non_blocking=True) makes, is what the two buffers are there to avoid)",
    ),
    "computed on the host": (
        _computes_on_the_host,
        "compute got a host tensor: copy each batch to the device first, non-blocking, and "
        "call compute on the copy",
    ),
    "computed twice": (
        _twice,
        "compute ran [2, 2, 2, 2, 2, 2] times on batches 0 to 5: call the compute passed in "
        "once per batch, on that batch's copy on the device",
    ),
    "new memory consumed": (
        _hands_over_with(lambda i, b, consume: consume(i, b) if i else consume(0, b.new_ones(1))),
        "consume(0, ...) got a tensor that is not one of buffers (new memory, or a copy of one): "
        "the host reads results only from the two pinned buffers given. Copy each result into "
        "one of them from the device, non-blocking, and hand that buffer to consume (new pinned "
        "memory per result, as .to('cpu', non_blocking=True) makes, is what the two buffers "
        "are there to avoid)",
    ),
    "a buffer changed on the host": (
        _hands_over_with(lambda i, b, consume: consume(i, b.add_(1))),
        "consume(0, ...) got a buffer that does not hold compute(batch 0)",
    ),
    "the result before": (
        _the_result_before(),
        "consume(1, ...) got compute(batch 0): hand each buffer over with the index of the "
        "result it holds",
    ),
}


@pytest.mark.parametrize("case", WHOLE_HINTS)
def test_each_rules_hint_reads_whole(case):
    answer, hint = WHOLE_HINTS[case]
    assert assert_fails(answer).hint == hint


def test_a_buffer_no_copy_went_into_is_named_with_how_to_fill_it():
    def never_copies_back(batches, compute, device, buffers, consume):
        overlapped(batches, compute, device)  # the chapter's, results left on the device
        for i in range(len(batches)):
            consume(i, buffers[i % 2])

    hint = assert_fails(never_copies_back).hint
    assert hint == (
        "consume(0, buffers[0]): result 0 was never copied into a buffer. Hand consume the "
        "buffer that result's copy went into, after copying it there with copy_(..., "
        "non_blocking=True)"
    )
    hint = assert_fails(pipeline(index_shift=1)).hint
    assert hint == (
        "consume(0, buffers[1]): result 0 was copied into buffers[0]. Hand consume the buffer "
        "that result's copy went into"
    )


def test_the_best_and_the_serial_times_take_the_slowest_stage_whichever_it_is():
    from d2lgpu.checks._ch08_copy_run import best_s, serial_s

    ms = 1e-3
    for stages, slowest in [((3, 1, 2), 3), ((1, 3, 2), 3), ((1, 2, 3), 3), ((1, 1, 1), 1)]:
        h2d, compute, d2h = (s * ms for s in stages)
        # the first copy in, three steps of the slowest stage, the last compute and copy back
        assert best_s(4, h2d, compute, d2h) == pytest.approx(h2d + 3 * slowest * ms + compute + d2h)
        assert serial_s(4, h2d, compute, d2h) == pytest.approx(4 * (h2d + compute + d2h))


def test_a_view_of_a_buffer_handed_to_consume_is_that_buffer():
    def hands_over_views(batches, compute, device, buffers, consume):
        pipeline()(batches, compute, device, buffers, lambda i, b: consume(i, b[:]))

    assert_passes(hands_over_views)


def test_the_real_gpus_results_are_compared_within_float_rounding(monkeypatch):
    # A GPU's compute may round otherwise than the serial loop's: 1e-2 apart, or 1e-3 of the
    # value, is the same result; 2e-2 or 2e-3 is not.
    from d2lgpu.checks import _copy_back_gpu
    from d2lgpu.grading import CheckFailed

    monkeypatch.setattr(torch.cuda, "synchronize", lambda *args: None)
    cpu = torch.device("cpu")

    def off_by(delta):
        def answer(batches, compute, device, buffers, consume):
            for i, batch in enumerate(batches):
                buffers[i % 2].copy_(compute(batch) + delta)
                consume(i, buffers[i % 2])

        return answer

    for size, within, beyond in [(0.0, 5e-3, 2e-2), (1000.0, 0.5, 3.0)]:
        host = [torch.full((4, 3), size + k) for k in range(3)]
        buffers = [torch.empty(4, 3) for _ in range(2)]
        _copy_back_gpu._check_results(off_by(within), host, buffers, torch.clone, cpu)
        with pytest.raises(CheckFailed, match="result 0 as consume read it differs"):
            _copy_back_gpu._check_results(off_by(beyond), host, buffers, torch.clone, cpu)


# ---------------------------------------------------------------------------------------------
# The rules on hand-made runs: the edges no whole answer reaches (a wait at the very first or
# last op, computes out of order, a rule broken only after a first buffer handled right)


class HandMadeRun:
    """What ``_simulated`` hands each rule: the GPU's ops, the host's waits, the copies back
    into host tensors, and what consume got. Ops are ``(kind, direction, batch, stream)``,
    numbered in order; a stream is a name, the compute stream "compute"."""

    def __init__(self, ops, waits=(), targets=None, consumed=()):
        from types import SimpleNamespace

        self.streams = {name: SimpleNamespace(name=name) for *_, name in ops}
        self.gpu = SimpleNamespace(ops=[], after=lambda first, follows: (
            follows.get(first.stream.name, -1) >= first.id
        ))  # fmt: skip
        # the compute stream is the default one, current at the call (no caller's stream)
        self.gpu.streams, self.gpu.default = (
            list(self.streams.values()),
            self.streams.get("compute"),
        )
        for op_id, (kind, direction, batch, stream) in enumerate(ops):
            flags = {"on_device": True, "direction": direction, "non_blocking": True}
            label = "compute" if kind == "kernel" else "copy"
            op = SimpleNamespace(
                id=op_id, kind=kind, batch=batch, stream=self.streams[stream], flags=flags,
                label=label,
            )  # fmt: skip
            self.gpu.ops.append(op)
        self.waits = list(waits)
        self.targets = dict(targets or {})  # copy id -> buffer index (None: another tensor)
        self.consumed = [{"index": i, "buffer": j, "queued": q} for i, j, q in consumed]

    def buffer_index(self, t):
        return t


def pipelined_ops(n, back=lambda i: "back", order=None):
    """Batch 0 copied in; then per batch: the next batch copied in, compute, copy back."""
    ops = [("copy", "h2d", 0, "side")]
    for i in order or range(n):
        if i + 1 < n:
            ops.append(("copy", "h2d", i + 1, "side"))
        ops += [("kernel", None, i, "compute"), ("copy", "d2h", i, back(i))]
    return ops


def rule_fails(rule, run, n, *hint_parts):
    """``ch08_copy_back.<rule>`` on ``run``: it passes where no hint part is given, else fails
    with each of them in its hint."""
    from d2lgpu.checks import ch08_copy_back
    from d2lgpu.grading import CheckFailed

    check_rule = getattr(ch08_copy_back, rule)
    if not hint_parts:
        check_rule(run, n)
        return
    with pytest.raises(CheckFailed) as caught:
        check_rule(run, n)
    for part in hint_parts:
        assert part in str(caught.value), str(caught.value)


def waits_fail(n, waits, *hint_parts, order=None):
    run = HandMadeRun(pipelined_ops(n, order=order), waits)
    rule_fails("_check_host_waits", run, n, *hint_parts)


def test_a_read_is_judged_from_the_first_copy_in_up_to_the_last_compute_queued():
    # n = 3: ops 0 copy in 0, 1 copy in 1, 2 compute 0, 3 back 0, 4 copy in 2, 5 compute 1,
    # 6 back 1, 7 compute 2, 8 back 2. A wait "queued" at k came after ops 0 .. k - 1.
    sync_hint = ("a sync in the loop", "the host waited (item())")
    waits_fail(3, [("item()", {}, 0)])  # before anything was queued: not in the loop
    waits_fail(3, [("item()", {}, 1)], *sync_hint)  # after the first copy in, before compute 0
    waits_fail(3, [("item()", {}, 7)], *sync_hint)  # just before the last compute
    waits_fail(3, [("item()", {}, 8)])  # after the last compute was queued
    waits_fail(3, [("item()", {}, 0), ("item()", {}, 3)], *sync_hint)  # a later one still counts


def test_a_wait_covering_an_older_compute_is_no_stall_and_one_before_any_compute_is_named():
    # after compute 1 was queued, waiting for compute 0 only: the GPU still has compute 1
    waits_fail(3, [("event.synchronize()", {"compute": 2}, 6)])
    # ... and a stall after it is still named
    stall = ("event.synchronize()", {"compute": 5}, 6)
    waits_fail(
        3,
        [("event.synchronize()", {"compute": 2}, 6), stall],
        "the host waited (event.synchronize()) for compute 1, the newest one queued, before "
        "queueing compute 2",
    )
    # a wait after the first copy in, before compute 0 was queued: the GPU has nothing of the
    # answer's to compute meanwhile (the prompt: whenever the host waits, the next compute is
    # queued), whether it waits for the device or for that copy's event
    for why, follows in (("torch.cuda.synchronize()", {"side": 0}), ("event.synchronize()", {})):
        waits_fail(3, [(why, follows, 1)], f"the host waited ({why}) before the first compute "
                   "was queued: the GPU has nothing of yours to compute")  # fmt: skip


def test_a_wait_for_the_last_batchs_compute_queued_early_is_no_stall():
    # Computes queued out of order: batch 2 (the last) before batch 1. Waiting for compute 2
    # while compute 1 is still to be queued leaves nothing after it to stall.
    order = [0, 2, 1]
    ops = pipelined_ops(3, order=order)
    last_batch = next(i for i, op in enumerate(ops) if op[:3] == ("kernel", None, 2))
    waits_fail(3, [("event.synchronize()", {"compute": last_batch}, last_batch + 1)], order=order)


def test_a_stall_on_the_second_to_last_compute_is_named():
    waits_fail(
        3,
        [("event.synchronize()", {"compute": 5}, 6)],
        "for compute 1, the newest one queued, before queueing compute 2",
    )


def streams_fail(n, back, *hint_parts):
    rule_fails("_check_streams", HandMadeRun(pipelined_ops(n, back=back)), n, *hint_parts)


def test_only_the_last_result_may_be_copied_back_on_the_compute_stream():
    # Nothing is computed after the last result: its copy back delays no compute.
    streams_fail(4, lambda i: "compute" if i == 3 else "back")
    streams_fail(
        4,
        lambda i: "compute" if i >= 2 else "back",
        "result 2 was copied back to the host on compute",
        "compute 3 waits behind that copy",
    )


def test_a_buffer_overwritten_is_named_after_a_copy_into_another_tensor_and_a_right_reuse():
    from d2lgpu.checks import _ch08_copy_consume
    from d2lgpu.grading import CheckFailed

    ops = pipelined_ops(3)  # copies back at ops 3, 6 and 8
    # copy 3 into a tensor of the answer's own; results 1 and 2 both into buffers[0], result 2's
    # copy queued before result 1 was consumed (result 0 was, from buffers[0], before)
    run = HandMadeRun(ops, targets={3: None, 6: 0, 8: 0}, consumed=[(0, 0, 5), (1, 0, 9)])
    with pytest.raises(CheckFailed, match=r"the copy of result 2 into buffers\[0\] was queued "):
        _ch08_copy_consume.check_buffer_reuse(run)
    run = HandMadeRun(ops, targets={3: 0, 6: 0, 8: 0}, consumed=[(0, 0, 5), (1, 0, 9)])
    with pytest.raises(CheckFailed, match=r"before result 1, which that buffer held"):
        _ch08_copy_consume.check_buffer_reuse(run)
    run = HandMadeRun(ops, targets={3: 0, 6: 0, 8: 0}, consumed=[(0, 0, 5), (1, 0, 7)])
    _ch08_copy_consume.check_buffer_reuse(run)  # each result consumed before the next copy in


def test_the_wrong_buffer_is_named_after_a_right_one():
    from d2lgpu.checks import _ch08_copy_consume
    from d2lgpu.grading import CheckFailed

    run = HandMadeRun(pipelined_ops(2), targets={3: 0, 5: 1}, consumed=[(0, 0, 4), (1, 0, 6)])
    with pytest.raises(CheckFailed, match=r"consume\(1, buffers\[0\]\): result 1 was copied "):
        _ch08_copy_consume.check_handed_buffers(run)


def test_a_run_that_ends_exactly_at_a_quarter_of_the_way_to_serial_passes():
    from d2lgpu.checks import ch08_copy_back
    from d2lgpu.checks._ch08_copy_run import best_s, serial_s
    from d2lgpu.grading import CheckFailed

    stages = (1e-3, 1e-3, 2e-3)
    best, serial = best_s(3, *stages), serial_s(3, *stages)
    run = HandMadeRun(pipelined_ops(3))
    run.end_s = best + 0.25 * (serial - best)  # the limit, as the checker computes it
    ch08_copy_back._check_overlap(run, 3, *stages)
    run.end_s += 1e-6
    with pytest.raises(
        CheckFailed,
        match=r"took 9\.0 ms: all three overlapped take 8\.0 ms, one after another 12\.0",
    ):
        ch08_copy_back._check_overlap(run, 3, *stages)


def test_each_simulated_run_has_its_own_stage_times(monkeypatch):
    # The fourth run's copies back take twice a compute: an answer slowed only by long copies
    # back is seen there alone.
    from d2lgpu.checks import ch08_copy_back
    from d2lgpu.checks._ch08_copy_run import ON_CALLER_STREAM, RUNS
    from d2lgpu.checks._ch08_rules import OTHER_GPU

    simulated, real = [], ch08_copy_back.simulate

    def recorded(answer, *times, device=None, dtype=torch.float32):
        simulated.append((*times, device, dtype))
        return real(answer, *times, device=device, dtype=dtype)

    monkeypatch.setattr(ch08_copy_back, "simulate", recorded)
    assert_passes(pipeline())
    assert [t[:-3] for t in simulated] == [(*r, False) for r in RUNS] + [(*ON_CALLER_STREAM, True)]
    # the runs of one batch and of 5 are given a GPU other than the current one; 5 is float64
    assert [t[-2] for t in simulated] == [None, OTHER_GPU, None, None, OTHER_GPU, None]
    assert [t[-1] for t in simulated] == [torch.float32] * 4 + [torch.float64, torch.float32]
    pools = [t[-3] for t in simulated]  # one pool of host batches, reused by every float32 run
    kept = [pool for pool, t in zip(pools, simulated, strict=True) if t[-1] == torch.float32]
    assert all(pool is kept[0] for pool in kept) and pools[4] is None
    assert len(kept[0]) == max(r[0] for r in RUNS)
    assert RUNS[2] == (4, 0.5e-3, 1e-3, 2e-3)


# ---------------------------------------------------------------------------------------------
# Red-team round 21: consume on a thread, pin_memory, "cuda" for device, state between calls,
# a synchronize at the start


def back_pipeline(to=send, hand=None, pending=None, first=None):
    """The solution's shape: copy in ahead on a side stream, copy back on a stream of its own,
    hand result i - 1 over once compute i is queued. ``to(batch, stream, device)`` sends a
    batch; ``hand(consume, i, buffer, landed)`` hands one over (by default: sync, consume);
    ``pending`` the list of results not handed over yet (by default one per call);
    ``first()`` is called at the start."""

    def handed(consume, i, buf, landed):
        landed.synchronize()
        consume(i, buf)

    def answer(batches, compute, device, buffers, consume):
        if first is not None:
            first()
        give = hand or handed
        cur = torch.cuda.current_stream(device)
        side, back = torch.cuda.Stream(device), torch.cuda.Stream(device)
        waiting = [] if pending is None else pending
        ahead = to(batches[0], side, device)
        for i in range(len(batches)):
            x, copied = ahead
            if i + 1 < len(batches):
                ahead = to(batches[i + 1], side, device)
            cur.wait_event(copied)
            x.record_stream(cur)
            y = compute(x)
            if waiting:
                give(consume, *waiting.pop())
            back.wait_stream(cur)
            with torch.cuda.stream(back):
                y.record_stream(back)
                buffers[i % 2].copy_(y, non_blocking=True)
                waiting.append((i, buffers[i % 2], back.record_event()))
        give(consume, *waiting[-1])  # left in the list: a kept list holds it into the next call

    return answer


def test_the_round_21_shape_passes():
    assert_passes(back_pipeline())


def test_consume_called_on_another_thread_is_named():
    from concurrent.futures import ThreadPoolExecutor

    pool = ThreadPoolExecutor(1)

    def on_a_thread(consume, i, buf, landed):
        pool.submit(lambda: (landed.synchronize(), consume(i, buf))).result()

    assert_fails(
        back_pipeline(hand=on_a_thread),
        "consume(0, ...) was called on another thread",
        "before consume has returned",
    )
    pool.shutdown()


def test_pinning_the_batches_in_the_function_is_named():
    def pins(batch, stream, device):
        return send(batch.pin_memory(), stream, device)

    assert_fails(back_pipeline(to=pins), "called pin_memory() 6 times", "arrive pinned")


def test_copies_to_the_current_gpu_not_the_device_given_are_named():
    def to_cuda(batch, stream, device):
        return send(batch, stream, "cuda")

    assert_fails(
        back_pipeline(to=to_cuda),
        "compute got a tensor on cuda:0, but the device passed in was cuda:1",
        'not to "cuda" or with .cuda() alone',
    )


def test_an_event_kept_between_calls_is_named():
    kept: list = []  # as a module-level list would: never emptied after the last hand-over
    assert_fails(
        back_pipeline(pending=kept),
        "an event recorded in an earlier call",
        "kept between calls (a global or module-level list",
    )


def test_a_synchronize_at_the_start_is_named():
    assert_fails(
        back_pipeline(first=lambda: torch.cuda.synchronize()),
        "the host waited (torch.cuda.synchronize()) at the start, before the first copy",
        "wait_stream / wait_event",
    )


def test_a_tensor_freed_after_record_stream_named_another_stream_is_named_so():
    from types import SimpleNamespace

    from d2lgpu.checks._ch08_copy_races import check_copy_back_hazards
    from d2lgpu.checks._util import CheckFailed
    from d2lgpu.stream_sim import Hazard

    def hint(flags, recorded):
        reader = SimpleNamespace(stream=SimpleNamespace(name="default stream"), flags=flags,
                                 label="compute 0", kind="kernel")  # fmt: skip
        freed = Hazard("freed", 0, reader, None, "side stream 1", recorded)
        with pytest.raises(CheckFailed) as failed:
            check_copy_back_hazards(SimpleNamespace(gpu=SimpleNamespace(hazards=[freed])))
        return failed.value.hint

    assert hint({}, ("side stream 2",)) == (
        "the device copy of batch 0 was freed (its last reference dropped) while compute 0 on "
        "default stream may still read it: the caching allocator may give its memory to the "
        "next copy at once. record_stream was given side stream 2, not default stream, where "
        "compute 0 reads it: record_stream takes the stream that uses the tensor. Call "
        "record_stream with the stream that reads it, or keep it until that work is done"
    )
    said = hint({"direction": "d2h"}, ("side stream 1", "side stream 3"))
    assert said.startswith("result 0's device memory was freed (its last reference dropped)")
    assert "record_stream was given side stream 1, side stream 3, not default stream, " in said
    assert "record_stream was given" not in hint({}, ())  # none given: the plain hint


def test_a_function_that_returns_something_is_told_to_return_nothing():
    right = pipeline()

    def returns_count(batches, compute, device, buffers, consume):
        right(batches, compute, device, buffers, consume)
        return len(batches)

    said = assert_fails(returns_count).hint
    assert said == (
        "your function returned an int: return nothing. The check reads what consume got; "
        "results handed back on the device would stay in device memory for as long as the "
        "caller holds them"
    )

    def returns_none(batches, compute, device, buffers, consume):
        right(batches, compute, device, buffers, consume)
        return None

    assert_passes(returns_none)


def _hazards_hint(*hazards, waits=()):
    """``check_copy_back_hazards``'s hint for a run whose simulated GPU recorded ``hazards``
    and ``waits`` (None: it passed)."""
    from types import SimpleNamespace

    from d2lgpu.checks._ch08_copy_races import check_copy_back_hazards
    from d2lgpu.checks._util import CheckFailed

    gpu = SimpleNamespace(hazards=list(hazards), waits=list(waits), default=None)
    try:
        check_copy_back_hazards(SimpleNamespace(gpu=gpu))
    except CheckFailed as failed:
        return failed.hint
    return None


def _op(op_id, kind, label, stream):
    from types import SimpleNamespace

    return SimpleNamespace(id=op_id, kind=kind, label=label, stream=stream, flags={})


def test_a_copy_back_that_waits_on_the_wrong_stream_is_named_as_the_copy_to_the_host():
    from types import SimpleNamespace

    from d2lgpu.stream_sim import Hazard

    compute, back, other = (SimpleNamespace(name=n) for n in ("compute", "back", "side"))
    wrote, read = _op(3, "kernel", "compute 2", compute), _op(4, "copy", "copy 2", back)
    waited = SimpleNamespace(stream=other, on=compute, covers={"compute": 3}, at=4)
    assert _hazards_hint(Hazard("read", 2, wrote, read), waits=[waited]) == (
        "the copy to the host of batch 2 may start before what it reads is written: side was "
        "made to wait for compute, but the work that reads the data runs on back, and that "
        "stream does not wait. Make the stream that reads wait: for the computes, the current "
        "stream (torch.cuda.current_stream(), taken when the function starts; give it to "
        "record_stream too)"
    )


def test_races_other_than_a_read_by_the_gpu_or_a_free_are_named_as_the_simulator_says():
    from types import SimpleNamespace

    from d2lgpu.stream_sim import Hazard

    compute, back, other = (SimpleNamespace(name=n) for n in ("compute", "back", "side"))
    wrote, later = _op(3, "kernel", "compute 1", compute), _op(5, "copy", "copy 2", back)
    waited = SimpleNamespace(stream=other, on=compute, covers={"compute": 3}, at=4)
    # an overwrite by another stream, though a third stream waited for the op: not a read
    assert _hazards_hint(Hazard("overwrite", 1, wrote, later), waits=[waited]) == (
        "a race on the simulated GPU: copy 2 on back may overwrite batch 1's memory before "
        "compute 1 on compute has finished"
    )
    # a read with no second op (the host's write into pinned memory): not the GPU's read
    assert _hazards_hint(Hazard("read", 1, wrote, None), waits=[waited]) == (
        "a race on the simulated GPU: the host overwrote pinned memory that compute 1 on "
        "compute may still read"
    )
    assert _hazards_hint(Hazard("host read", 1, later, None)) is None  # check_landed's


def test_a_buffer_filled_from_a_staging_tensor_on_the_device_is_named():
    def staged(batches, compute, device, buffers, consume):
        current = torch.cuda.current_stream(device)
        copy, back = torch.cuda.Stream(device), torch.cuda.Stream(device)

        def send(b):
            with torch.cuda.stream(copy):
                return b.to(device, non_blocking=True), copy.record_event()

        staging, pending, ahead = None, None, send(batches[0])
        for i in range(len(batches)):
            x, landed = ahead
            if i + 1 < len(batches):
                ahead = send(batches[i + 1])
            current.wait_event(landed)
            x.record_stream(current)
            y = compute(x)
            staging = torch.empty_like(y) if staging is None else staging
            staging.copy_(y)  # on the compute stream: a device copy of the result
            if pending is not None:
                pending[2].synchronize()
                consume(pending[0], pending[1])
            back.wait_stream(current)
            with torch.cuda.stream(back):
                buffers[i % 2].copy_(staging, non_blocking=True)
                pending = (i, buffers[i % 2], back.record_event())
        pending[2].synchronize()
        consume(pending[0], pending[1])

    assert assert_fails(staged).hint == (
        "consume(0, buffers[0]): buffers[0] was filled from a device tensor that is not result "
        "0 as compute returned it (a staging tensor, a cast, a copy made on the device): an "
        "extra device copy per result, and one tensor reused for every result is overwritten by the "
        "next result while its copy back may still read it. Copy compute's result itself into "
        "the buffer"
    )


def test_computes_queued_on_the_default_stream_inside_a_callers_stream_are_named():
    """Called inside `with torch.cuda.stream(s)`, the current stream is s: computes queued on
    torch.cuda.default_stream() come before nothing the caller queued on s."""

    def on_default(batches, compute, device, buffers, consume):
        default = torch.cuda.default_stream(device)
        with torch.cuda.stream(default):
            pipeline()(batches, compute, device, buffers, consume)

    assert_fails(
        on_default,
        "compute of batch 0 ran on default stream, not on the current stream",
        "torch.cuda.default_stream() is not always the current one",
        "torch.cuda.current_stream(device)",
    )


def test_a_float64_batch_sent_through_a_float32_tensor_is_named(monkeypatch):
    def send_into_a_float32_tensor(batch, copy_stream, device):
        with torch.cuda.stream(copy_stream):
            x = torch.empty(batch.shape, device=device)  # the default dtype, not the batch's
            x.copy_(batch, non_blocking=True)
            return x, copy_stream.record_event()

    monkeypatch.setitem(globals(), "send", send_into_a_float32_tensor)
    assert_fails(
        pipeline(),
        "consume(0, ...) got compute(batch 0) rounded to float32, though batch 0 is float64",
        "torch.empty(shape, device=device) without dtype=",
    )


def test_a_float64_result_handed_over_with_another_index_is_named_as_such():
    from types import SimpleNamespace

    from d2lgpu.checks._ch08_copy_consume import check_values
    from d2lgpu.checks._ch08_copy_run import reference_compute
    from d2lgpu.checks._util import CheckFailed

    host = [torch.randn(5, 4, dtype=torch.float64) for _ in range(3)]
    swapped = SimpleNamespace(consumed=[{"index": 0, "value": reference_compute(host[1])}])
    with pytest.raises(CheckFailed, match=r"consume\(0, \.\.\.\) got compute\(batch 1\)"):
        check_values(swapped, host)
    right = [{"index": i, "value": reference_compute(b)} for i, b in enumerate(host)]
    check_values(SimpleNamespace(consumed=right), host)  # float64 results, exact: nothing to say
