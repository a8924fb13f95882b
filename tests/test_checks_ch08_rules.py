"""The rules both of chapter 8's checkers apply (d2lgpu/checks/_ch08_rules.py), called in this
process on the records of small simulated runs: which stream was made to wait for a copy, one
copy per batch, pinning in the function, the current GPU named where the run's device is
another, the device compute got, a host wait at the start, and what each rule's hint says,
word for word. The checkers' own tests (tests/test_checks_ch08.py, ..._copy_back.py) grade
whole answers; here each test takes well under a second."""

import pytest
import torch
from grading_helpers import rule_fails

from d2lgpu.checks._ch08_rules import (
    CALLER,
    OTHER_GPU,
    caller_stream,
    check_current_gpu_calls,
    check_no_pins,
    check_no_start_wait,
    check_on_device,
    check_one_copy_per_batch,
    check_stream_kept,
    device_seen,
    other_stream_waited,
)
from d2lgpu.stream_sim import Wait, simulated_cuda

FIX = (
    "Make the stream that reads wait: for the computes, the current stream "
    "(torch.cuda.current_stream(), taken when the function starts; give it to "
    "record_stream too)"
)


@pytest.fixture(autouse=True)
def _one_thread(one_thread):
    """torch on one thread: a thread pool in pytest's process hangs a mutation run's forks."""


def _pinned_batch(gpu, i: int) -> torch.Tensor:
    """Host batch ``i``, pinned beforehand as a loader's thread hands it over."""
    return gpu.name_batch(torch.full((2, 3), float(i)), i, pinned=True)


# ---------------------------------------------------------------------------------------------
# other_stream_waited


def test_the_default_stream_waited_while_the_callers_stream_reads_is_named_with_why():
    with simulated_cuda() as gpu, caller_stream(gpu, True) as caller:
        side = torch.cuda.Stream(gpu.device)
        with torch.cuda.stream(side):
            copy = _pinned_batch(gpu, 0).to(gpu.device, non_blocking=True)
        torch.cuda.default_stream(gpu.device).wait_stream(side)  # not the current stream
        assert caller.name == CALLER and side.name == "side stream 2"
        assert other_stream_waited(gpu, caller, side, gpu.ops[0].id) == (
            "default stream was made to wait for side stream 2, but the work that reads the "
            "data runs on the caller's stream (torch.cuda.default_stream() is the current "
            "stream only when no `with torch.cuda.stream(...)` block is in force; the check "
            "also calls your function inside one, as a caller on a stream of its own does), "
            "and that stream does not wait",
            FIX,
        )
        del copy


def test_of_several_other_streams_that_waited_the_last_is_named():
    with simulated_cuda() as gpu:
        writer, *others = [torch.cuda.Stream(gpu.device) for _ in range(4)]
        with torch.cuda.stream(writer):
            copy = _pinned_batch(gpu, 0).to(gpu.device, non_blocking=True)
        for s in others:
            s.wait_stream(writer)
        writer.wait_stream(writer)  # the writer's own wait is no other stream's
        assert [s.name for s in others] == ["side stream 2", "side stream 3", "side stream 4"]
        # a side stream, not the default one: no word on torch.cuda.default_stream()
        assert other_stream_waited(gpu, gpu.default, writer, gpu.ops[0].id) == (
            "side stream 4 was made to wait for side stream 1, but the work that reads the "
            "data runs on default stream, and that stream does not wait",
            FIX,
        )
        del copy


def test_a_wait_covers_the_writers_ops_up_to_and_including_the_last_it_names():
    with simulated_cuda() as gpu:
        writer, other = torch.cuda.Stream(gpu.device), torch.cuda.Stream(gpu.device)
        with torch.cuda.stream(writer):
            first = _pinned_batch(gpu, 0).to(gpu.device, non_blocking=True)
        other.wait_stream(writer)
        with torch.cuda.stream(writer):
            second = _pinned_batch(gpu, 1).to(gpu.device, non_blocking=True)
        covered = gpu.waits[-1].covers[writer.name]  # the event recorded after the first copy
        assert [op.label for op in gpu.ops] == ["copy 0", "event", "copy 1"]
        assert covered == gpu.ops[1].id
        assert other_stream_waited(gpu, gpu.default, writer, covered) is not None
        assert other_stream_waited(gpu, gpu.default, writer, covered + 1) is None  # copy 1
        del first, second


def test_no_hint_where_no_other_stream_waited_for_the_write():
    with simulated_cuda() as gpu:
        writer, other = torch.cuda.Stream(gpu.device), torch.cuda.Stream(gpu.device)
        with torch.cuda.stream(writer):
            copy = _pinned_batch(gpu, 0).to(gpu.device, non_blocking=True)
        assert gpu.ops[0].id == 0
        assert other_stream_waited(gpu, gpu.default, writer, 0) is None  # no wait at all
        gpu.default.wait_stream(writer)  # the reader's own wait
        other.wait_stream(gpu.default)  # a wait for another stream than the writer
        assert other_stream_waited(gpu, gpu.default, writer, 0) is None
        # a wait that names none of the writer's ops covers none of them, op 0 included
        gpu.waits.append(Wait(other, writer, {}, len(gpu.ops)))
        assert other_stream_waited(gpu, gpu.default, writer, 0) is None
        del copy


# ---------------------------------------------------------------------------------------------
# check_one_copy_per_batch


def _copies_and_computes(answer, n: int):
    """The copies to the device and the computes of ``answer`` on ``n`` pinned batches."""
    with simulated_cuda() as gpu:
        batches = [_pinned_batch(gpu, i) for i in range(n)]
        answer(batches, gpu.kernel(lambda t: t + 1), gpu.device)
    copies = [op for op in gpu.ops if op.flags.get("direction") == "h2d"]
    return copies, [op for op in gpu.ops if op.label.startswith("compute")]


def _joined(batches, compute, device):
    x = torch.cat(batches).to(device, non_blocking=True)
    return [compute(v) for v in x.chunk(len(batches))]


def _first_two_joined(batches, compute, device):
    two = torch.cat(batches[:2]).to(device, non_blocking=True)
    last = batches[2].to(device, non_blocking=True)
    return [compute(v) for v in [*two.chunk(2), last]]


def _made_on_the_device(batches, compute, device):
    return [compute(torch.zeros(2, 3, device=device)) for _ in batches]


def _each_copied_one_made(batches, compute, device):
    copies = [b.to(device, non_blocking=True) for b in batches]
    return [compute(copies[0]), compute(torch.zeros(2, 3, device=device))]


def _each_copied(batches, compute, device):
    return [compute(b.to(device, non_blocking=True)) for b in batches]


JOINED = (
    " to the device for {n} batches: a copy that carries several batches (the host batches "
    "joined with torch.cat or torch.stack, the computes on views of the one device tensor) "
    "makes compute 0 wait until every batch has landed, so no copy runs while a compute runs. "
    "Copy each batch on its own, the copy of batch i + 1 queued while batch i is computed"
)


@pytest.mark.parametrize(
    "answer, n, made",
    [
        (_joined, 2, "1 copy"),
        (_first_two_joined, 3, "2 copies"),
        (_made_on_the_device, 2, "0 copies"),
    ],
)
def test_fewer_copies_than_batches_are_counted(answer, n, made):
    copies, computes = _copies_and_computes(answer, n)
    assert len(copies) == int(made[0])
    assert rule_fails(check_one_copy_per_batch, copies, computes, n) == made + JOINED.format(n=n)


def test_a_compute_on_no_batchs_own_copy_is_named_once_each_batch_is_copied():
    copies, computes = _copies_and_computes(_each_copied_one_made, 2)
    assert len(copies) == 2 and [op.batch for op in computes] == [0, None]
    assert rule_fails(check_one_copy_per_batch, copies, computes, 2) == (
        "compute got a device tensor that is not one batch's own copy (several batches "
        "joined, or a tensor made on the device: a clone, a cast, a staging tensor, each an "
        "extra kernel and device memory per batch): call compute on the copy of each batch, "
        "one batch per call"
    )


def test_one_batch_needs_no_copy_of_its_own_and_one_copy_each_passes():
    # one batch: a copy of "several" is the one batch, and nothing could overlap it anyway
    assert check_one_copy_per_batch([], [], 1) is None
    copies, computes = _copies_and_computes(_each_copied, 3)
    assert check_one_copy_per_batch(copies, computes, 3) is None


def _last_copied_again(batches, compute, device):
    results = [compute(b.to(device, non_blocking=True)) for b in batches]
    batches[-1].to(device, non_blocking=True)  # a prefetch clamped to the last batch
    return results


def _each_copied_three_times(batches, compute, device):
    return [compute([b.to(device, non_blocking=True) for _ in range(3)][-1]) for b in batches]


def test_a_batch_copied_to_the_device_more_than_once_is_named():
    copies, computes = _copies_and_computes(_last_copied_again, 3)
    assert rule_fails(check_one_copy_per_batch, copies, computes, 3) == (
        "batch 2 was copied to the device twice: each copy holds a copy engine for its whole "
        "length and takes device memory of its own, for a batch already there. Copy each "
        "batch once, and compute on that copy"
    )
    copies, computes = _copies_and_computes(_each_copied_three_times, 2)
    said = rule_fails(check_one_copy_per_batch, copies, computes, 2)
    assert said.startswith("batch 0 was copied to the device 3 times: ")  # the first batch


def test_the_callers_stream_left_current_passes_and_another_is_named():
    with simulated_cuda() as gpu:
        before = gpu.current
        assert check_stream_kept(gpu, before) is None
        side = torch.cuda.Stream()
        with torch.cuda.stream(side):
            pass
        assert check_stream_kept(gpu, before) is None  # a with-block puts it back
        torch.cuda.set_stream(side)
        said = rule_fails(check_stream_kept, gpu, before)
    assert said == (
        "after your function returned, the current stream was side stream 1, not default "
        "stream, as when it was called: torch.cuda.set_stream changes it for the caller too, "
        "whose next work then runs there. Use `with torch.cuda.stream(s):`, which puts the "
        "caller's stream back when the block ends"
    )


# ---------------------------------------------------------------------------------------------
# check_no_pins


PIN_END = "the batches arrive pinned, and the prompt asks not to pin in the function. "


def test_page_locked_memory_made_is_counted_and_the_first_call_named():
    with simulated_cuda() as gpu:
        batch = _pinned_batch(gpu, 0)
        torch.empty(2, 3, pin_memory=True)
        torch.zeros(2, 3, pin_memory=True)
        batch.pin_memory()  # named after: the memory made comes first
    assert rule_fails(check_no_pins, gpu) == (
        "your function made page-locked host memory (torch.empty(..., pin_memory=True)) 2 "
        "times: " + PIN_END + "Copying a batch into new pinned memory is a copy on the host "
        "that holds the loop, as pin_memory() of it would be. Copy each batch as it arrives, "
        "with non_blocking=True"
    )


def test_pin_memory_calls_are_counted_even_of_a_pinned_batch():
    with simulated_cuda() as gpu:
        batch = _pinned_batch(gpu, 0)
        batch.pin_memory()
        batch.clone().pin_memory()
    assert rule_fails(check_no_pins, gpu) == (
        "your function called pin_memory() 2 times: " + PIN_END + "pin_memory() of a pinned "
        "batch does nothing, and of a pageable tensor (a clone, a new buffer) it is a copy on "
        "the host that holds the loop. Copy each batch as it arrives, with non_blocking=True"
    )


def test_no_pinning_passes():
    with simulated_cuda() as gpu:
        _pinned_batch(gpu, 0).to(gpu.device, non_blocking=True)
        torch.empty(2, 3)  # pageable memory made on the host is no pinning
    assert check_no_pins(gpu) is None


# ---------------------------------------------------------------------------------------------
# check_current_gpu_calls


def test_a_call_that_means_the_current_gpu_is_named_first_of_them():
    with simulated_cuda() as gpu:
        gpu.device = OTHER_GPU
        torch.cuda.Stream()
        torch.cuda.synchronize()
    assert gpu.current_gpu_calls == ["torch.cuda.Stream()", "torch.cuda.synchronize()"]
    assert rule_fails(check_current_gpu_calls, gpu) == (
        "in the run given device=cuda:1, not the current GPU, your function called "
        "torch.cuda.Stream(): without a device, torch.cuda's streams and synchronize() are "
        "the current GPU's (cuda:0), not the device's, so that stream orders nothing on "
        "cuda:1 (a copy to cuda:1 under it goes on cuda:1's own current stream) and that "
        "synchronize waits for nothing there. Name the device: torch.cuda.Stream(device), "
        "torch.cuda.current_stream(device), torch.cuda.synchronize(device)"
    )


def test_calls_that_name_the_device_pass():
    with simulated_cuda() as gpu:
        gpu.device = OTHER_GPU
        torch.cuda.Stream(gpu.device)
        torch.cuda.current_stream(gpu.device)
        torch.cuda.synchronize(gpu.device)
    assert check_current_gpu_calls(gpu) is None


# ---------------------------------------------------------------------------------------------
# device_seen and check_on_device


def test_device_seen_notes_the_device_tensors_compute_gets_and_what_it_returns():
    seen, made = [], []
    compute = device_seen(lambda t, scale: t * scale, seen, made)
    with simulated_cuda() as gpu:
        x = _pinned_batch(gpu, 1).to(gpu.device)
        assert torch.equal(compute(x, scale=2), torch.full((2, 3), 2.0))
        assert seen == [torch.device("cuda", 0)]
        compute(torch.ones(2), 3)  # a host tensor and a number: nothing to note
        assert seen == [torch.device("cuda", 0)]
        compute(t=x, scale=1)  # a keyword's tensor is noted too
    assert seen == [torch.device("cuda", 0)] * 2
    assert len(made) == 3 and all(r() is None for r in made)  # weak: the results are gone
    assert device_seen(lambda: 1, seen, made)() == 1 and len(made) == 3  # no tensor, no note


def test_the_first_tensor_on_another_device_is_named():
    cuda0, cuda1 = torch.device("cuda", 0), torch.device("cuda", 1)
    assert check_on_device([cuda1, cuda1], cuda1) is None
    assert rule_fails(check_on_device, [cuda1, cuda0, torch.device("cpu")], cuda1) == (
        "compute got a tensor on cuda:0, but the device passed in was cuda:1: the check also "
        "calls your function with a GPU other than the current one. Copy the batches to "
        '`device` (.to(device, non_blocking=True)), not to "cuda" or with .cuda() alone, '
        "which mean the current GPU, and make the streams on it (torch.cuda.Stream(device), "
        "torch.cuda.current_stream(device))"
    )


# ---------------------------------------------------------------------------------------------
# check_no_start_wait


def test_a_host_wait_before_the_first_copy_is_named_and_one_after_it_passes():
    assert rule_fails(check_no_start_wait, "torch.cuda.synchronize()", 3, 3) == (
        "the host waited (torch.cuda.synchronize()) at the start, before the first copy: it "
        "waits for all the work the caller queued before the call (a previous step's), which "
        "the copies could run beside, and queues nothing meanwhile. No synchronize in the "
        "function: order the streams on the GPU (wait_stream / wait_event)"
    )
    assert check_no_start_wait("torch.cuda.synchronize()", 4, 3) is None  # the copy queued
