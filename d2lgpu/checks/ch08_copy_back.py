"""Checker of chapter 8's second exercise: ``08.copy_back``, results copied back without a stall.

The answer is ``pipelined_to_host(batches, compute, device, buffers, consume)``. As in
``08.overlap`` (:mod:`.ch08_streams`) it copies each pinned host batch to ``device`` and
computes on it, the copy of batch ``i + 1`` beside compute ``i``; then it copies each
result back to the host into one of two pinned ``buffers`` (host memory for two results
only), and calls ``consume(i, buffer)`` once per batch, in order, with the buffer that holds
``compute(batch i)``. A buffer is free again once ``consume`` has returned. The chapter's
``overlapped`` (section 8.4) and ``results_to_host`` (section 8.8) do not solve it: the
first never copies back, the second holds every result in new pinned memory and reads
them all at the end.

It runs on every machine against the simulated GPU of :mod:`d2lgpu.stream_sim`, with 6,
1 and 4 batches (the last with copies back twice as long as the computes). Checked, each
with a hint that names the mistake: ``consume`` called once per batch, in order, with one
of ``buffers``; each batch computed once, on the device; no copy to the device after
batch 0's, and no copy back but the last, on the compute stream (either would queue in
front of the next compute); no race (a compute that does not wait for its copy, a copy
back that does not wait for its compute, device memory freed while another stream may
use it); no copy back into a buffer whose result has not been consumed yet; no result
handed to ``consume`` before the host knows its copy has landed; the results; no host
wait in the loop that reads data (``.cpu()``, ``.item()``, a blocking copy) or that waits
for the newest compute before the next one is queued (the GPU would stand idle while the
host waits); and, in the simulated timeline, all three stages overlapping: the run takes
at most a quarter of the way from the best overlapped time to the serial one.

On a real GPU (:mod:`._copy_back_gpu`) the answer also runs for real: right results,
faster than a serial loop by a margin, and copies to the host beside kernels in a
``torch.profiler`` trace.
"""

from __future__ import annotations

import inspect

import torch

from ..stream_sim import simulated_cuda
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_copy_back", "reference_compute", "simulate", "best_s", "serial_s"]

# batches, seconds of a copy to the device, of a compute, of a copy back to the host
_RUNS = ((6, 1e-3, 1e-3, 1e-3), (1, 1e-3, 1e-3, 1e-3), (4, 0.5e-3, 1e-3, 2e-3))
N_BUFFERS = 2
ROWS, COLS = 5, 4


def reference_compute(x: torch.Tensor) -> torch.Tensor:
    """The simulated runs' compute: a different number per row of every batch."""
    return (x * 1.5).sin().sum(dim=1)


def best_s(n: int, h2d_s: float, compute_s: float, d2h_s: float) -> float:
    """Seconds for ``n`` batches when the three stages overlap: the first copy in, ``n - 1``
    steps of the slowest stage, the last compute and the last copy back."""
    return h2d_s + (n - 1) * max(h2d_s, compute_s, d2h_s) + compute_s + d2h_s


def serial_s(n: int, h2d_s: float, compute_s: float, d2h_s: float) -> float:
    """Seconds for ``n`` batches one stage after another."""
    return n * (h2d_s + compute_s + d2h_s)


class _Run:
    """What one simulated run recorded, besides the simulator's own records."""

    def __init__(self, gpu, buffers):
        self.gpu, self.buffers = gpu, buffers
        self.consumed: list[dict] = []  # one per consume call, in order
        self.waits: list[tuple[str, dict, int]] = []  # (why, what it covers, ops queued before)
        self.targets: dict[int, torch.Tensor] = {}  # copy back's op id -> the host tensor
        self.end_s = 0.0
        real_wait, real_landing = gpu.host_wait, gpu.landing

        def host_wait(follows, why):
            self.waits.append((why, dict(follows), len(gpu.ops)))
            real_wait(follows, why)

        def landing(t, copy, data):
            self.targets[copy.id] = t
            real_landing(t, copy, data)

        gpu.host_wait, gpu.landing = host_wait, landing

    def buffer_index(self, t) -> int | None:
        """Which of the buffers ``t`` is (or is a view of); None if none."""
        if not isinstance(t, torch.Tensor):
            return None
        with torch._C.DisableTorchFunction():
            ptr = t.untyped_storage().data_ptr()
            for j, b in enumerate(self.buffers):
                if t is b or b.untyped_storage().data_ptr() == ptr:
                    return j
        return None

    def consume(self, i, t) -> None:
        gpu = self.gpu
        entry = {"index": i, "queued": len(gpu.ops), "buffer": self.buffer_index(t)}
        entry["on_device"] = isinstance(t, torch.Tensor) and gpu.buffer(t) is not None
        if entry["buffer"] is not None:
            j = entry["buffer"]
            copies = [op_id for op_id, dst in self.targets.items() if self.buffer_index(dst) == j]
            copy = gpu.ops[max(copies)] if copies else None
            entry["copy"] = copy
            entry["landed"] = copy is None or gpu.after(copy, gpu.host_follows)
            gpu.host_access(t)  # the host reads it: the copy lands here if the host knows it did
            with torch._C.DisableTorchFunction():
                entry["value"] = t.detach().clone()
        self.consumed.append(entry)


def simulate(answer, n: int, h2d_s: float, compute_s: float, d2h_s: float):
    """Run ``answer`` on a simulated GPU with ``n`` pinned host batches and two pinned
    buffers of one result each; return ``(run, host_batches)``."""
    gen = torch.Generator().manual_seed(180 + n)
    host = [torch.randn(ROWS, COLS, generator=gen) for _ in range(n)]
    with simulated_cuda(h2d_s, compute_s, d2h_s=d2h_s) as gpu:
        # pinned beforehand, as DataLoader(pin_memory=True) gives them: no host time here
        batches = [gpu.name_batch(b.clone(), i, pinned=True) for i, b in enumerate(host)]
        # pinned beforehand too, for the whole run; NaN until a copy fills them
        buffers = [torch.full((ROWS,), float("nan"), pin_memory=True) for _ in range(N_BUFFERS)]
        run = _Run(gpu, buffers)
        answer(batches, gpu.kernel(reference_compute), gpu.device, list(buffers), run.consume)
        run.end_s = max([gpu.host_time] + [op.end for op in gpu.ops])
        del batches
    return run, host


# --- what is checked, in order ---------------------------------------------------------------


def _check_signature(answer) -> None:
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('08.copy_back', pipelined_to_host)")
    try:
        inspect.signature(answer).bind(None, None, None, None, None)
    except TypeError:
        raise CheckFailed(
            "pipelined_to_host takes five arguments, (batches, compute, device, buffers, "
            "consume): the batches, the compute, the device as in exercise 8.1, then the two "
            "pinned buffers to copy results into and the function to hand each result to"
        ) from None
    except ValueError:  # no signature to read (a builtin): let the call say what is wrong
        pass


def _check_consumed(run, n: int) -> None:
    calls = run.consumed
    if not calls:
        raise CheckFailed(
            f"consume was never called for {n} batches: the function's return value is not "
            "used. Hand each result to the host with consume(i, buffer), once per batch, in "
            "order, the buffer holding compute(batch i)"
        )
    indices = [c["index"] for c in calls]
    if indices != list(range(n)):
        raise CheckFailed(
            f"consume was called with the indices {indices} for {n} batches: call "
            f"consume(i, buffer) once for each i, in order, 0 to {n - 1} (mind the last "
            "batch, whose result is handed over after the loop)"
        )
    for c in calls:
        if c["buffer"] is None:
            what = (
                "a device tensor"
                if c["on_device"]
                else "a tensor that is not one of buffers (new memory, or a copy of one)"
            )
            raise CheckFailed(
                f"consume({c['index']}, ...) got {what}: the host reads results only from "
                "the two pinned buffers given. Copy each result into one of them from the "
                "device, non-blocking, and hand that buffer to consume (new pinned memory "
                "per result, as .to('cpu', non_blocking=True) makes, is what the two buffers "
                "are there to avoid)"
            )


def _ops(gpu, kind, direction=None):
    ops = [op for op in gpu.ops if op.kind == kind]
    if kind == "kernel":
        return [op for op in ops if op.label.startswith("compute")]
    return [op for op in ops if op.flags.get("direction") == direction]


def _check_streams(run, n: int) -> None:
    gpu = run.gpu
    computes = _ops(gpu, "kernel")
    if any(not op.flags.get("on_device") for op in computes):
        raise CheckFailed(
            "compute got a host tensor: copy each batch to the device first, non-blocking, "
            "and call compute on the copy"
        )
    per_batch = [sum(op.batch == i for op in computes) for i in range(n)]
    if per_batch != [1] * n:
        raise CheckFailed(
            f"compute ran {per_batch} times on batches 0 to {n - 1}: call the compute passed "
            "in once per batch, on that batch's copy on the device"
        )
    stream = computes[0].stream
    for op in _ops(gpu, "copy", "h2d"):
        if op.batch not in (None, 0) and op.stream is stream:
            raise CheckFailed(
                f"batch {op.batch} was copied to the device on {op.stream.name}, the stream "
                "the computes run on, so that copy waits for the computes queued before it: "
                "copy on a side stream, as in exercise 8.1"
            )
    for op in _ops(gpu, "copy", "d2h"):  # the blocking ones are syncs: _check_host_waits
        late = op.batch is not None and op.batch < n - 1 and op.flags.get("non_blocking")
        if late and op.stream is stream:
            raise CheckFailed(
                f"result {op.batch} was copied back to the host on {op.stream.name}, the "
                f"stream the computes run on, so compute {op.batch + 1} waits behind that "
                "copy. Copy back on a stream of its own (torch.cuda.Stream) that waits for "
                "the compute on the GPU"
            )
    for copy_id, t in run.targets.items():
        batch = gpu.ops[copy_id].batch
        if run.buffer_index(t) is None and batch is not None:
            raise CheckFailed(
                f"result {batch} was copied to the host into new pinned memory "
                "(.to('cpu', non_blocking=True) makes a tensor per result): copy it into "
                "one of the two buffers given, with copy_(..., non_blocking=True)"
            )


def _check_handed_buffers(run) -> None:
    """Each consume(i, buffer) gets a buffer that result i was copied into."""
    gpu = run.gpu
    went: dict[int | None, set[int | None]] = {}  # result -> the buffers it was copied into
    for copy_id, t in run.targets.items():
        went.setdefault(gpu.ops[copy_id].batch, set()).add(run.buffer_index(t))
    # a blocking copy's target is not recorded: it is a sync, which _check_host_waits names
    blocking = {op.batch for op in _ops(gpu, "copy", "d2h") if not op.flags.get("non_blocking")}
    for c in run.consumed:
        i, j = c["index"], c["buffer"]
        if j in went.get(i, ()) or i in blocking:
            continue
        into = sorted(k for k in went.get(i, ()) if k is not None)
        raise CheckFailed(
            f"consume({i}, buffers[{j}]): result {i} was "
            + (f"copied into buffers[{into[0]}]" if into else "never copied into a buffer")
            + ". Hand consume the buffer that result's copy went into"
            + ("" if into else ", after copying it there with copy_(..., non_blocking=True)")
        )


def _check_buffer_reuse(run) -> None:
    """No copy back into a buffer whose previous result the host has not consumed yet."""
    gpu = run.gpu
    last: dict[int, int | None] = {}  # buffer -> the result last copied into it
    for copy_id in sorted(run.targets):
        j = run.buffer_index(run.targets[copy_id])
        if j is None:
            continue
        batch = gpu.ops[copy_id].batch
        before = last.get(j)
        if before is not None and before != batch:
            done = [c for c in run.consumed if c["index"] == before and c["buffer"] == j]
            if not done or done[0]["queued"] > copy_id:
                raise CheckFailed(
                    f"the copy of result {batch} into buffers[{j}] was queued before result "
                    f"{before}, which that buffer held, was handed to consume: it overwrites a "
                    "result the host has not read yet. A buffer is free only once consume has "
                    "returned for its result; hand result i over before copying result "
                    f"i + {N_BUFFERS} into its buffer"
                )
        last[j] = batch


def _check_hazards(run, n: int) -> None:
    for hazard in run.gpu.hazards:
        first, second = hazard.first, hazard.second
        if hazard.kind == "read" and second is not None and second.kind == "kernel":
            raise CheckFailed(
                f"compute of batch {hazard.batch} may start before its copy to the device has "
                "finished: the compute stream does not wait for the copy. Make the GPU wait "
                "(wait_event on an event recorded after the copy, or wait_stream), not the host"
            )
        if hazard.kind == "read" and second is not None:
            raise CheckFailed(
                f"the copy of result {hazard.batch} to the host may start before compute "
                f"{hazard.batch} has finished: {second.stream.name} does not wait for "
                f"{first.stream.name}, so on the simulated GPU it copied memory the compute had "
                "not written yet. Make the stream that copies back wait for the compute on the "
                "GPU (wait_stream, or wait_event on an event recorded after the compute)"
            )
        if hazard.kind == "freed" and first.flags.get("direction") == "d2h":
            raise CheckFailed(
                f"result {hazard.batch}'s device memory was freed (its last reference dropped) "
                f"while its copy to the host on {first.stream.name} may still read it: the "
                "caching allocator may hand it to the next compute at once. Call "
                "record_stream with the stream that copies back, or keep the result until "
                "that copy is known to be done"
            )
        if hazard.kind == "freed":
            raise CheckFailed(
                f"the device copy of batch {hazard.batch} was freed (its last reference "
                f"dropped) while {first.label} on {first.stream.name} may still read it: the "
                "caching allocator may give its memory to the next copy at once. Call "
                "record_stream with the stream that reads it, or keep it until that work is done"
            )
        if hazard.kind != "host read":  # the host's early reads: _check_landed names them
            raise CheckFailed(f"a race on the simulated GPU: {hazard}")


def _check_landed(run) -> None:
    for c in run.consumed:
        if not c["landed"]:
            raise CheckFailed(
                f"result {c['index']} was handed to consume before the host knew that its copy "
                "had landed: a non-blocking copy to the host returns at once, and the buffer "
                "holds the result only once the copy is done. Before consume, make the host "
                "wait for that copy, and only for it (synchronize an Event recorded after it, "
                "on the stream that made it)"
            )
    early = [h for h in run.gpu.hazards if h.kind == "host read"]
    if early:  # consume's own reads waited (above): this one came from elsewhere
        raise CheckFailed(
            f"the host read a buffer while the copy of result {early[0].batch} into it may "
            "still run (outside consume: a print, a clone, a write): a buffer is the host's "
            "only between the wait for its copy and the return of consume"
        )


def _check_values(run, host) -> None:
    want = [reference_compute(b) for b in host]
    for c in run.consumed:
        i, got = c["index"], c["value"]
        if got.shape == want[i].shape and torch.allclose(got, want[i]):
            continue
        j = next(
            (j for j, w in enumerate(want) if got.shape == w.shape and torch.allclose(got, w)),
            None,
        )
        raise CheckFailed(
            f"consume({i}, ...) got compute(batch {j}): hand each buffer over with the index "
            "of the result it holds"
            if j is not None
            else f"consume({i}, ...) got a buffer that does not hold compute(batch {i})"
        )


_READ_NAMES = {
    "__repr__": "print() of a device tensor",
    "__str__": "str() of a device tensor",
    "__format__": "an f-string or print() of a device tensor",
    "__float__": "float() of a device tensor",
    "__int__": "int() of a device tensor",
    "__bool__": "an `if` on a device tensor",
}


def _is_sync(why: str) -> bool:
    """A wait for work the host asked to wait for (an event's, a stream's or the device's
    synchronize, a query polled): not a read of data."""
    return why.endswith("synchronize()") or "query()" in why


def _check_host_waits(run, n: int) -> None:
    gpu = run.gpu
    computes = _ops(gpu, "kernel")
    last = computes[-1].id
    first = min(op.id for op in gpu.ops if op.kind == "copy")
    for why, follows, queued in run.waits:
        if not first < queued <= last:
            continue  # before the first copy, or after the last compute was queued
        if not _is_sync(why):
            if why.startswith("copy_ of a device value"):
                why = "a copy_ to the host without non_blocking=True"
            raise CheckFailed(
                f"a sync in the loop: the host waited ({_READ_NAMES.get(why, why)}) before the last compute was "
                "queued. A read of device data, a .cpu(), or a copy without "
                "non_blocking=True holds the host until the GPU gets there, so nothing is "
                "queued meanwhile. Copy results back non-blocking into the buffers, and make "
                "the host wait only for copies whose result it hands over"
            )
        queued_computes = [op for op in computes if op.id < queued]
        newest = queued_computes[-1] if queued_computes else None
        if newest is None or newest.batch is None or newest.batch >= n - 1:
            continue
        if gpu.after(newest, follows):
            raise CheckFailed(
                f"the host waited ({why}) for compute {newest.batch}, the newest one queued, "
                f"before queueing compute {newest.batch + 1}: the GPU stands idle until the "
                "host queues more. Wait for the copy of a result only once the next batch's "
                "compute (and its copy back) is queued"
            )
        ahead = [op.id for op in _ops(gpu, "copy", "h2d") if op.batch == newest.batch + 1]
        if not ahead or min(ahead) >= queued:
            raise CheckFailed(
                f"the host waited ({why}) before batch {newest.batch + 1} was copied to the "
                f"device, so that copy cannot run beside compute {newest.batch}: the next "
                "compute then waits for its copy. Queue the next batch's copy in before the "
                "host waits for anything"
            )


def _check_overlap(run, n: int, h2d_s: float, compute_s: float, d2h_s: float) -> None:
    if n < 2:
        return
    best, serial = best_s(n, h2d_s, compute_s, d2h_s), serial_s(n, h2d_s, compute_s, d2h_s)
    if run.end_s <= best + 0.25 * (serial - best):
        return
    gpu = run.gpu
    h2d_streams = {op.stream.name for op in _ops(gpu, "copy", "h2d")}
    shared = {op.stream.name for op in _ops(gpu, "copy", "d2h")} & h2d_streams
    why = (
        f"The copies back share {sorted(shared)[0]} with the copies to the device, so each "
        "copy in queues behind the copy back of a result, which waits for its compute: give "
        "the copies back a stream of their own"
        if shared
        else "Look at the timeline (print(gpu.timeline()) inside simulated_cuda) for a stage "
        "that waits for another it does not need"
    )
    raise CheckFailed(
        f"on the simulated GPU, {n} batches with {h2d_s * 1e3:g} ms copies in, "
        f"{compute_s * 1e3:g} ms computes and {d2h_s * 1e3:g} ms copies back took "
        f"{run.end_s * 1e3:.1f} ms: all three overlapped take {best * 1e3:.1f} ms, one after "
        f"another {serial * 1e3:.1f} ms. {why}"
    )


def _simulated(answer, passed) -> None:
    main: tuple[int, float, float, float] | None = None
    for n, h2d_s, compute_s, d2h_s in _RUNS:
        run, host = simulate(answer, n, h2d_s, compute_s, d2h_s)
        _check_consumed(run, n)
        _check_streams(run, n)
        _check_handed_buffers(run)
        _check_buffer_reuse(run)
        _check_hazards(run, n)
        _check_landed(run)
        _check_values(run, host)
        _check_host_waits(run, n)
        _check_overlap(run, n, h2d_s, compute_s, d2h_s)
        if main is None:
            best, serial = best_s(n, h2d_s, compute_s, d2h_s), serial_s(n, h2d_s, compute_s, d2h_s)
            main = (n, run.end_s, best, serial)
    assert main is not None  # _RUNS is not empty
    n, took, best, serial = main
    passed += [
        "consume(i, buffer) called once per batch, in order, with one of the two buffers "
        "holding compute(batch i), for 6, 1 and 4 batches (on a simulated GPU)",
        "copies to the device beside the computes, copies back on a stream other than the "
        "computes', into the buffers; every stream waits on the GPU for what it reads; no "
        "device memory freed while another stream may use it",
        "no buffer copied into before its result was consumed, and no result consumed before "
        "the host knew its copy had landed",
        "in the loop the host never reads device data and never waits for the newest compute "
        "before the next one is queued",
        f"simulated with 1 ms per stage, {n} batches take {took * 1e3:.1f} ms (all three "
        f"stages overlapped: {best * 1e3:.1f} ms; one after another: {serial * 1e3:.1f} ms)",
    ]


def check_copy_back(answer, passed):
    """``pipelined_to_host(batches, compute, device, buffers, consume)`` on a simulated GPU,
    then on a real one if any."""
    _check_signature(answer)
    one_cpu_thread(_simulated)(answer, passed)
    if torch.cuda.is_available():
        from ._copy_back_gpu import check_on_gpu

        check_on_gpu(answer, passed)
