"""Checker of chapter 6: ``06.slowest_op``, reading a profile.

The answer is ``slowest_op(fn, args, device) -> str``: the name of the operator with the
largest *self* time in one profiled call of ``fn(*args)``, made after a warm-up call. On a GPU,
time means the device's time (``self_device_time_total``), and the warm-up's GPU work must be
finished (synchronized) before profiling.

* On the CPU (``device=cpu``), workloads whose slowest operator it knows (``_ch06_workloads``),
  the last with an operator called 80 times on 8 shapes (ranking by time per call, or by rows
  per shape, picks another). Its ``fn`` records whether the profiler ran during each call
  (``torch.autograd._profiler_enabled``); reads of ``prof.events()`` (one entry per call) and
  every table ``key_averages()`` returned are recorded, to name the mistake from the answer's
  own profile, and so are the device-time columns it read (all 0 on the CPU).
* On a GPU: the real one when there is one (workloads sized for a GPU), otherwise a *scripted*
  one (``_gpu_profile``): ``device`` is ``cuda:0``, every way of waiting for it is recorded,
  and the profile holds the times a GPU gives, device times only if the answer asked for
  ``ProfilerActivity.CUDA``.

A busy machine can stall one operator until it leads the profile. A right answer names that
entry; the checker runs it again, up to four profiles in a row each led by the entry the answer
named, which passes, while a wrong rule (calls, total time, time per call) still fails. Where a
stalled call of the 80-times operator is the longest call of its profile, ranking calls and
ranking operators agree; the answer is then asked about the profile a quiet machine gives
(``SCRIPTED_CPU_ROWS``). On a GPU an operator's kernel is listed after it with the same self
device time: either entry passes. Only ``aten::`` entries (a filter some answers apply) is
accepted: it leaves out only kernels, runtime calls and the profiler's own entries.

It sets ``KINETO_LOG_LEVEL`` (if unset) so that the profiler's C++ library does not log.
"""

from __future__ import annotations

import os
import warnings

import torch

from ._ch06_reads import (
    asked,
    device_column_hint,
    device_columns_read,
    events_read,
    grouped_by_shape,
    profiles,
    returned_name,
)
from ._ch06_workloads import (
    MISSES,
    RUNTIME_CALL,
    by_shape_hint,
    largest,
    many_calls_workload,
    profiler_own,
    summed_by_name,
    text_led,
    workloads,
    wrong_column,
)
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_slowest_op"]


def _recording(fn, calls, log=None, state=None):
    """``fn`` that records, per call, whether the profiler was running (in ``calls`` and ``log``)."""

    def recorded(*args):
        enabled = torch.autograd._profiler_enabled()
        calls.append(enabled)
        if log is not None:
            log.append(("call", enabled))
        if state is not None and enabled:
            state["fn_profiled"] = True
        return fn(*args)

    return recorded


def _name_check(got, want, what, device, misses, calls_read, table=None) -> None:
    if got == want:
        return
    if calls_read:  # what the calls it read sum to per operator, and its longest call
        table, one = summed_by_name(calls_read[-1])
    if calls_read and got == one:
        raise CheckFailed(
            f"on {device.type}, for {what}, you returned {got!r} from prof.events(), which "
            "lists every call separately: an operator called many times has many entries, each "
            "with a part of its time. prof.key_averages() sums them per operator; take the "
            "entry with the largest self time there"
        )
    if profiler_own(got):
        raise CheckFailed(
            f"on {device.type}, for {what}, you returned {got!r}, an entry of the profiler's own "
            "work, not an operator of fn"
            + (
                " (CUPTI's buffer for GPU activity): ask for ProfilerActivity.CUDA only when "
                "device is a GPU"
                if got == "Activity Buffer Request" and device.type == "cpu"
                else ": skip the entries that are not operators"
            )
        )
    if misses and got in misses:
        raise CheckFailed(f"on {device.type}: {misses[got]}")
    if isinstance(got, str) and "::" in want and got == want.split("::", 1)[1]:
        raise CheckFailed(
            f"on {device.type}, for {what}, you returned {got!r}, the name of {want} without "
            "its namespace: return the entry's .key as it is, aten:: included"
        )
    # aten::matmul's own hint says what its total time includes
    column_hint = (
        wrong_column(got, table)
        if table and device.type == "cpu" and got != "aten::matmul"
        else None
    )
    if column_hint:
        raise CheckFailed(f"on {device.type}, for {what}, {column_hint}")
    if got in MISSES:
        # The first entry of key_averages() is aten::matmul too: so is the largest of a column
        # of zeros, which every device column is on the CPU.
        cpu = got == "aten::matmul" and device.type == "cpu"
        text = cpu and text_led(got, table or [])  # read only where the hint says it
        unsorted = (
            "; if you took the first entry, or sorted by a device column (all zeros on the "
            "CPU), sort by self_cpu_time_total instead"
            + (f"; it also has {text}: compare the numbers" if text else "")
        )
        raise CheckFailed(f"on {device.type}: {MISSES[got]}{unsorted if cpu else ''}")
    if got.startswith("cuda") and got[4:5].isupper():
        raise CheckFailed(f"on {device.type}: " + RUNTIME_CALL.format(got=got))
    raise CheckFailed(
        f"on {device.type}, for {what}, the operator with the most self time is {want}; you "
        f"returned {got!r}: take the .key of the entry of prof.key_averages() with the "
        "largest self time"
        + (" on the device (self_device_time_total)" if device.type == "cuda" else "")
    )


def _calls_check(calls) -> None:
    if not calls:
        raise CheckFailed(
            "fn was never called: slowest_op must run fn(*args) itself, once as a warm-up and "
            "once inside a torch.profiler.profile block, and return the operator that profile "
            "shows (a name written from memory is wrong on another workload)"
        )
    if not any(calls):
        raise CheckFailed(
            "fn ran, but never while the profiler was recording: call it inside the "
            "torch.profiler.profile block"
        )
    if calls[0]:
        raise CheckFailed(
            "the first call of fn was already profiled: call fn(*args) once before "
            "profiling (a warm-up), so that one-off costs do not pollute the profile"
        )
    if sum(calls) > 1:
        raise CheckFailed(
            f"fn ran {sum(calls)} times while the profiler was recording: profile one call of "
            "fn after the warm-up (a schedule's warm-up and active steps record too)"
        )


def _shapes_split(want, tables, grouped) -> int:
    """On how many input shapes ``want`` ran, read from the tables grouped by input shape (0
    where none was): grouping misleads a ranking only where it split ``want`` over several."""
    rows = [sum(e.key == want for e in t) for t, by in zip(tables, grouped, strict=True) if by]
    return max(rows, default=0)


def _busy(got, want, tables) -> bool:
    """Whether the answer's own profile ranked another entry first (a busy machine stalled
    one of its operators) and the answer returned that entry: it followed the rule."""
    top = largest(tables[-1], "self_cpu_time_total") if tables else set()
    return bool(top) and want not in top and got in top


def _calls_agree(events, want) -> bool:
    """Whether the longest single call of ``events`` is one of ``want``'s many: on such a
    profile ranking calls and ranking operators agree, and cannot be told apart."""
    rows, one = summed_by_name(events)
    return one == want and any(e.key == want and e.count > 1 for e in rows)


def _on_a_quiet_machine(answer, fn, args):
    """What the answer names from the many-calls workload's profile on a quiet machine
    (``SCRIPTED_CPU_ROWS``), and what it read of ``events()``."""
    from ._gpu_profile import SCRIPTED_CPU_ROWS, scripted_cpu

    with scripted_cpu(SCRIPTED_CPU_ROWS) as state, events_read() as read:
        got = returned_name(answer(_recording(fn, [], None, state), args, torch.device("cpu")))
    return got, read


_BUSY_TRIES = 4  # profiles in a row led by another operator, each named by the answer: a pass


def _cpu_checks(answer, passed) -> None:
    cpu = torch.device("cpu")
    for n, (fn, args, want, what, misses) in enumerate([*workloads(), many_calls_workload()]):
        busy = 0
        for attempt in range(_BUSY_TRIES + 1):
            calls: list[bool] = []
            with (
                events_read() as read, profiles() as tables, grouped_by_shape() as grouped,
                device_columns_read() as device,
            ):  # fmt: skip
                got = asked(answer, _recording(fn, calls), args, cpu, what, device)
            _calls_check(calls)
            if n == 0 and attempt == 0:
                passed.append("fn is called once to warm up, then profiled")
            # Rows per input shape were ranked where want ran on several: right at most when a
            # busy machine made one shape's row lead, so never a pass. Where want ran on one
            # shape its row is its total, and the workload cannot tell: the next one does.
            shapes = _shapes_split(want, tables, grouped)
            if shapes > 1 and all(grouped):
                raise CheckFailed(f"on cpu, {by_shape_hint(got, want, what, shapes)}")
            if got == want:
                if read and _calls_agree(read[-1], want):  # a stalled call of a many-called
                    # operator led the calls: what does the answer name on a quiet profile?
                    got, read = _on_a_quiet_machine(answer, fn, args)
                    if got != want:
                        _name_check(got, want, what, cpu, misses, read)
                break
            if device and not (tables and got in largest(tables[-1], "self_cpu_time_total")):
                raise CheckFailed(device_column_hint(got, what, device))  # a CPU has none
            if shapes > 1:  # its rows are not the operators' totals: no busy machine's
                raise CheckFailed(f"on cpu, {by_shape_hint(got, want, what, shapes)}")
            # Again while each profile was led by another operator that the answer named (a
            # machine busy with other programs stalled it), and once where the answer read no
            # table to tell: a busy machine can stall any operator once, so that first profile
            # counts as a busy one (a table read in the next is judged as any other).
            busy += _busy(got, want, tables) or (not tables and attempt == 0)
            every_run_busy = busy == attempt + 1
            if every_run_busy and busy < _BUSY_TRIES:
                continue
            if not every_run_busy:
                _name_check(got, want, what, cpu, misses, read, tables[-1] if tables else None)
            break
        passed.append(f"{what}: {want}")


def _on_a_gpu_machine(answer, passed) -> None:
    """Asked about the CPU on a machine with a GPU (a scripted one where there is none, with
    a quiet CPU's profile): the CPU's column still decides."""
    done = "on a machine with a GPU, asked about the CPU: the CPU's self time decides"
    if torch.cuda.is_available():  # the checks above ran on one
        passed.append(done)
        return
    from ._gpu_profile import SCRIPTED_CPU_ROWS, gpu_machine_hint, scripted_gpu

    fn, args, want, what, _ = many_calls_workload()
    with scripted_gpu(SCRIPTED_CPU_ROWS) as state, device_columns_read() as device:
        got = asked(answer, _recording(fn, [], None, state), args, torch.device("cpu"), what)
    if got != want:
        raise CheckFailed(gpu_machine_hint(got, what, device))
    passed.append(done)


def _gpu_run(answer, state, fn, args, device, what):
    calls: list[bool] = []
    got = asked(answer, _recording(fn, calls, state["log"], state), args, device, what)
    _calls_check(calls)
    if not any(state["cuda_requested"]):
        raise CheckFailed(
            "on a GPU (device cuda:0) the profile recorded no device times: when device is "
            "a GPU, ask the profiler for ProfilerActivity.CUDA as well as "
            "ProfilerActivity.CPU, and compare self_device_time_total"
        )
    log = state["log"]
    first = next(i for i, e in enumerate(log) if e == ("call", False))
    profiled = next(i for i, e in enumerate(log) if e == ("call", True))
    if ("sync", False) not in log[first:profiled]:
        raise CheckFailed(
            "on a GPU the warm-up call only queues its work: synchronize after it "
            "(d2lgpu.sync(device) or torch.cuda.synchronize()) before profiling starts, or "
            "the warm-up's kernels run into the profile"
        )
    return got


def _gpu_checks(answer) -> None:
    from ._gpu_profile import SCRIPTED_WANT, SCRIPTED_WHAT, scripted_gpu, watched_gpu

    if torch.cuda.is_available():  # the workloads sized for a GPU, on this machine's
        device = torch.device("cuda", torch.cuda.current_device())
        gpu, runs = watched_gpu, workloads(device, n=4096, exp_numel=64_000_000)
    else:  # the scripted GPU's profile holds a GPU's times for the first workload (run small)
        device = torch.device("cuda:0")
        fn, args, *_ = workloads(n=64, exp_numel=8)[0]
        gpu, runs = scripted_gpu, [(fn, args, SCRIPTED_WANT, SCRIPTED_WHAT, {})]
    for fn, args, want, what, misses in runs:
        with gpu() as state, events_read() as read, profiles() as tables:
            got = _gpu_run(answer, state, fn, args, device, what)
        if not _tied(got, want, tables):
            _name_check(got, want, what, device, misses, calls_read=read)


def _tied(got, want, tables) -> bool:
    """Whether ``got`` is an entry whose self device time equals the operator's, the largest:
    on a GPU an operator's kernel is listed after it with the same time."""
    top = largest(tables[-1], "self_device_time_total") if tables else set()
    return want in top and got in top


def check_slowest_op(answer, passed):
    """``slowest_op(fn, args, device)`` on CPU workloads, then on a real or scripted GPU."""
    if not callable(answer):
        raise CheckFailed("pass the function itself: check('06.slowest_op', slowest_op)")
    os.environ.setdefault("KINETO_LOG_LEVEL", "6")  # read when the profiler first starts
    with warnings.catch_warnings():
        # torch 2.11 warns, once per process, when a profiler starts again ("Profiler clears
        # events at the end of each cycle"): the checker's repeated runs, not the answer's doing.
        warnings.filterwarnings("ignore", message="Warning: Profiler clears events")
        one_cpu_thread(_cpu_checks)(answer, passed)
        _on_a_gpu_machine(answer, passed)
        _gpu_checks(answer)
    passed.append(
        "on a GPU (this machine's, or a scripted profile where there is none): the operator "
        "with the most device time, profiled with ProfilerActivity.CUDA after a synchronized "
        "warm-up"
    )
