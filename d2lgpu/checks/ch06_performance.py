"""Checker of chapter 6: ``06.slowest_op``, reading a profile.

The answer is ``slowest_op(fn, args, device) -> str``: the name of the operator with the
largest *self* time in one profiled call of ``fn(*args)``, made after a warm-up call. On a GPU,
time means the device's time (``self_device_time_total``), and the warm-up's GPU work must be
finished (synchronized) before profiling.

* On the CPU (``device=cpu``), workloads whose slowest operator it knows (``_ch06_workloads``):
  one with an operator called 80 times, from 4 places, on 8 shapes (ranking by time per call,
  or the rows per shape or per call stack, picks another), a training step whose backward is
  the slowest, and a custom operator with a long name. Its ``fn`` (``_ch06_calls``) records whether the profiler ran during each
  call, and refuses a call with gradients off or with copies of ``args``; the labels the
  answer opened (``record_function``), reads of ``prof.events()`` (one entry per call) and
  every table ``key_averages()`` returned are recorded, to name the mistake from the answer's
  own profile (operators ``fn`` never runs among them), and so are the device-time columns it
  read (all 0 on the CPU).
* On a GPU: the real one when there is one (workloads sized for a GPU), otherwise a *scripted*
  one (``_gpu_profile``): ``device`` is ``cuda:0``, every way of waiting for it is recorded,
  and the profile holds the times a GPU gives, device times only if the answer asked for
  ``ProfilerActivity.CUDA``. Then always ``cuda:1`` of two scripted GPUs, the current one
  ``cuda:0`` (a sync of the current GPU is accepted: in the notebook ``device`` is the
  current GPU), with a product small enough that the CPU's launches outlast it (CPU time,
  alone or added, ranks another).

A busy machine can stall one operator until it leads the profile. A right answer names that
entry; the checker runs it again, up to four profiles in a row each led by the entry the answer
named, which passes, while a wrong rule (calls, total time, time per call) still fails. Where a
stalled call of the 80-times operator is the longest call of its profile, ranking calls and
ranking operators agree; the answer is then asked about the profile a quiet machine gives
(``SCRIPTED_CPU_ROWS``). On a GPU an operator's kernel is listed after it with the same self
device time: either entry passes. Only ``aten::`` entries is accepted, but not where a custom
operator leads (``_ch06_custom_op``). It sets ``KINETO_LOG_LEVEL`` (if unset): the profiler's
C++ library does not log.
"""

from __future__ import annotations

import functools
import os
import warnings

import torch

from ._ch06_calls import (
    args_check,
    calls_check,
    extra_operators_check,
    gpu_column_hint,
    label_hint,
    labels_opened,
    recording,
    sync_check,
)
from ._ch06_custom_op import custom_op_workload
from ._ch06_reads import (
    asked,
    device_column_hint,
    device_columns_read,
    events_read,
    gpu_machine_hint,
    grouped_rows,
    name_check,
    profiles,
    returned_name,
)
from ._ch06_workloads import (
    MANY_SHAPES,
    MANY_SITES,
    backward_skipped,
    backward_workload,
    by_group_hint,
    largest,
    many_calls_workload,
    profiler_own,
    self_leaders,
    self_rankings,
    summed_by_name,
    workloads,
)
from ._util import CheckFailed, one_cpu_thread

__all__ = ["check_slowest_op"]


def _rows_split(want, tables, grouped, sites: int) -> int:
    """Over how many rows ``want`` was split, read from the tables grouped by input shape or
    call stack (0 where none was): grouping misleads a ranking only where it split ``want``.
    A table grouped by stack splits it over its ``sites`` (the places fn calls it from) at
    least, where torch records an operator's stack (newer torch leaves it empty)."""
    rows = [
        max(sum(e.key == want for e in t), sites if "stack" in by else 0)
        for t, by in zip(tables, grouped, strict=True)
        if by
    ]
    return max(rows, default=0)


def _summed_rows(got, want, tables) -> bool:
    """Whether an answer that read only grouped tables named ``want`` where none of its rows
    led its own table: it summed each operator's rows, as key_averages() with no grouping
    does (ranking the rows names the row that leads)."""
    rows = [e for e in tables[-1] if not profiler_own(e.key)] if tables else []
    top = max((e.self_cpu_time_total for e in rows), default=0)
    return (
        got == want and top > 0 and all(e.self_cpu_time_total < top for e in rows if e.key == want)
    )


def _sums_lead(got, tables) -> bool:
    """Whether ``got`` leads the sums of each operator's rows in the answer's own table."""
    sums: dict[str, float] = {}
    for e in tables[-1] if tables else []:
        if not profiler_own(e.key):
            sums[e.key] = sums.get(e.key, 0) + e.self_cpu_time_total
    return bool(sums) and max(sums, key=sums.__getitem__) == got


def _busy(got, want, tables, read=()) -> bool:
    """Whether the answer's own profile ranked another entry first (a busy machine stalled
    one of its operators) and the answer returned that entry: it followed the rule. Each
    ranking :func:`self_rankings` gives is asked alone: a stalled autograd node can lead all
    the entries while ``want`` still leads the ``aten::`` ones. Where it read no table but
    the calls (``read``: ``events()``), their sums per operator rank."""
    if not tables and read:
        tables = [summed_by_name(read[-1])[0]]
    tops = self_rankings(tables[-1]) if tables else []
    return any(got in top and want not in top for top in tops)


def _calls_agree(events, want) -> bool:
    """Whether the longest single call of ``events`` is one of ``want``'s many: on such a
    profile ranking calls and ranking operators agree, and cannot be told apart."""
    rows, one = summed_by_name(events)
    return one == want and any(e.key == want and e.count > 1 for e in rows)


def _quiet_rows(group_by_input_shape=False, group_by_stack_n=0, *rest, **kwargs) -> list:
    """The many-calls workload's profile on a quiet machine (``SCRIPTED_CPU_ROWS``) as
    ``key_averages()`` groups it: aten::exp's 80 calls split over its 8 input shapes and (by
    call stack) its 4 places, each row shorter than the product's one call."""
    from ._gpu_profile import SCRIPTED_CPU_ROWS

    parts = (MANY_SHAPES if group_by_input_shape else 1) * (MANY_SITES if group_by_stack_n else 1)
    rows = []
    for key, count, *times in SCRIPTED_CPU_ROWS:
        k = parts if count > 1 else 1
        rows += [(key, count // k, *(t / k for t in times))] * k
    return rows


def _on_a_quiet_machine(answer, fn, args):
    """The name from the many-calls workload's quiet profile, and what it read of events()."""
    from ._gpu_profile import scripted_cpu

    with scripted_cpu(_quiet_rows) as state, events_read() as read:
        got = returned_name(answer(recording(fn, [], args, None, state), args, torch.device("cpu")))
    return got, read


_BUSY_TRIES = 4  # profiles in a row led by another operator, each named by the answer: a pass


def _cpu_checks(answer, passed) -> None:
    cpu = torch.device("cpu")
    known: dict[str, set[str]] = {}  # the operators of each workload's fn
    runs = [*workloads(), many_calls_workload(), backward_workload(), custom_op_workload()]
    for n, (fn, args, want, what, misses) in enumerate(runs):
        busy = 0
        for attempt in range(_BUSY_TRIES + 1):
            calls: list[bool] = []
            with (
                events_read() as read, profiles() as tables, grouped_rows() as grouped,
                device_columns_read() as device, labels_opened() as labels,
            ):  # fmt: skip
                recorded = recording(fn, calls, args)
                got = asked(answer, recorded, args, cpu, what, device)
            calls_check(calls, recorded, later=n > 0 or attempt > 0)
            if n == 0 and attempt == 0:
                passed.append("fn is called once to warm up, then profiled")
            if got in labels:
                raise CheckFailed(label_hint(got, what, cpu))
            extra_operators_check(tables[-1] if tables else None, fn, args, what, known)
            # Rows per input shape (or call stack) were ranked where want was split over
            # several: right at most when a busy machine made one row lead, so never a pass.
            # Where want has one row it is its total, and the workload cannot tell: the next one does.
            split = _rows_split(want, tables, grouped, MANY_SITES if n == 3 else 1)  # 3: many calls
            how = next((by for by in reversed(grouped) if by), "")
            if split > 1 and all(grouped) and not _summed_rows(got, want, tables):
                if got == want and n == 3:  # a row of want led here: and on a quiet machine?
                    if _on_a_quiet_machine(answer, fn, args)[0] == want:
                        break  # it summed the rows (a stalled exp led them here)
                elif attempt < _BUSY_TRIES and (got == want or _sums_lead(got, tables)):
                    continue  # a row of want led, or a busy machine's stall led the sums
                raise CheckFailed(f"on cpu, {by_group_hint(got, want, what, split, how)}")
            if got == want:
                if read and _calls_agree(read[-1], want):  # a stalled call of a many-called
                    # operator led the calls: what does the answer name on a quiet profile?
                    got, read = _on_a_quiet_machine(answer, fn, args)
                    if got != want:
                        name_check(got, want, what, cpu, misses, read)
                break
            if device and not (tables and got in self_leaders(tables[-1])):
                raise CheckFailed(device_column_hint(got, what, device))  # a CPU has none
            if split > 1:  # its rows are not the operators' totals: no busy machine's
                raise CheckFailed(f"on cpu, {by_group_hint(got, want, what, split, how)}")
            # Again while each profile was led by another operator that the answer named (a
            # machine busy with other programs stalled it), and once where the answer read no
            # table to tell: a busy machine can stall any operator once, so that first profile
            # counts as a busy one (a table read in the next is judged as any other).
            busy += _busy(got, want, tables, read) or (not tables and attempt == 0)
            every_run_busy = busy == attempt + 1
            if every_run_busy and busy < _BUSY_TRIES:
                continue
            skipped = "backward" in want and tables and backward_skipped(got, tables[-1])
            if skipped:
                raise CheckFailed(f"on cpu, for {what}, {skipped}")
            if not every_run_busy:
                name_check(got, want, what, cpu, misses, read, tables[-1] if tables else None)
            break
        passed.append(f"{what}: {want}")


def _on_a_gpu_machine(answer, passed) -> None:
    """Asked about the CPU on a machine with a GPU (a scripted one where there is none, with
    a quiet CPU's profile): the CPU's column still decides."""
    done = "on a machine with a GPU, asked about the CPU: the CPU's self time decides"
    if torch.cuda.is_available():  # the checks above ran on one
        passed.append(done)
        return
    from ._gpu_profile import SCRIPTED_CPU_ROWS, scripted_gpu

    fn, args, want, what, _ = many_calls_workload()
    with (
        scripted_gpu(SCRIPTED_CPU_ROWS, device_times=False) as state,
        device_columns_read() as device,
    ):
        got = asked(answer, recording(fn, [], args, None, state), args, torch.device("cpu"), what)
    if got != want:
        raise CheckFailed(gpu_machine_hint(got, what, device))
    passed.append(done)


def _gpu_run(answer, state, fn, args, device, what):
    calls: list[bool] = []
    recorded = recording(fn, calls, args, state["log"], state)
    got = asked(answer, recorded, args, device, what)
    calls_check(calls, recorded, later=True)  # after the CPU runs
    if not any(state["cuda_requested"]):
        raise CheckFailed(
            f"on a GPU (device {device}) the profile recorded no device times: when device is "
            "a GPU, ask the profiler for ProfilerActivity.CUDA as well as "
            "ProfilerActivity.CPU, and compare self_device_time_total; tell a GPU by "
            "device.type == 'cuda' (a torch.device never equals a string such as 'cuda')"
        )
    sync_check(state["log"], device)
    if got in state["labels"]:
        raise CheckFailed(label_hint(got, what, device))
    return got


def _gpu_checks(answer) -> None:
    """On this machine's GPU, or a scripted one; then on cuda:1 of two scripted GPUs, whose
    product is small enough that launching the additions takes the CPU longer."""
    from ._gpu_profile import (
        SCRIPTED_LAUNCH_ROWS,
        SCRIPTED_LAUNCH_WHAT,
        SCRIPTED_WANT,
        SCRIPTED_WHAT,
        scripted_gpu,
        watched_gpu,
    )

    small, small_args, *_ = workloads(n=64, exp_numel=8)[0]
    if torch.cuda.is_available():  # the workloads sized for a GPU, on this machine's
        device = torch.device("cuda", torch.cuda.current_device())
        runs = [(watched_gpu, device, *w) for w in workloads(device, 4096, 64_000_000)]
    else:  # the scripted GPU's profile holds a GPU's times for the first workload (run small)
        device = torch.device("cuda:0")
        runs = [(scripted_gpu, device, small, small_args, SCRIPTED_WANT, SCRIPTED_WHAT, {})]
    launches = functools.partial(scripted_gpu, SCRIPTED_LAUNCH_ROWS, gpus=2)
    runs.append((launches, torch.device("cuda:1"), small, small_args, SCRIPTED_WANT,
                 SCRIPTED_LAUNCH_WHAT, {}))  # fmt: skip
    for gpu, device, fn, args, want, what, misses in runs:  # the scripted GPU's patches meet
        with (  # an answer's own names for what they replace (the kit's patched, _aliases)
            gpu() as state, events_read() as read, profiles() as tables,
            device_columns_read() as columns,
        ):  # fmt: skip
            got = _gpu_run(answer, state, fn, args, device, what)
        if got != want and not _tied(got, want, tables):  # a label's row may lead the table
            hint = gpu_column_hint(got, tables[-1] if tables else None, what, columns)
            if hint:
                raise CheckFailed(hint)
            name_check(got, want, what, device, misses, calls_read=read)


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
        one_cpu_thread(args_check)(answer, passed)
        _on_a_gpu_machine(answer, passed)
        _gpu_checks(answer)
    passed.append(
        "on a GPU (this machine's, or a scripted profile where there is none): the operator "
        "with the most device time, profiled with ProfilerActivity.CUDA after a synchronized "
        "warm-up"
    )
