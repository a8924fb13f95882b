"""What ``06.slowest_op``'s answer read of its profile, and returned: the calls of a profile's
``events()``, every table ``key_averages()`` returned and how it was grouped (input shape, call stack),
the device-time columns its own code read (all 0 in a profile of the CPU); the name it
returned (:func:`asked`), and the hints for its errors that the profile explains (a column
newer torch renamed, a filter on a column of zeros, a wrong name: :func:`name_check`).

What it is not: the checker; :mod:`d2lgpu.checks.ch06_performance` judges what it records.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import torch

from ._ch06_workloads import (
    MISSES,
    RUNTIME_CALL,
    profiler_own,
    summed_by_name,
    text_led,
    wrong_column,
)
from ._kit import calls_to
from ._util import CheckFailed

__all__ = [
    "DEVICE_COLUMNS",
    "RENAMED",
    "asked",
    "device_column_hint",
    "device_columns_read",
    "events_read",
    "gpu_machine_hint",
    "name_check",
    "grouped_rows",
    "profile_error_hint",
    "profiles",
    "returned_name",
]


def events_read():
    """Record (in the yielded list) what every call of a profile's ``events()`` returned."""
    from torch.profiler.profiler import _KinetoProfile  # torch.profiler.profile's base

    return calls_to(_KinetoProfile, "events")


def profiles():
    """Record (in the yielded list) every table ``key_averages()`` returned, through either
    profiler API (``torch.profiler.profile`` calls the legacy class's)."""
    return calls_to(torch.autograd.profiler.profile, "key_averages")


def grouped_rows():
    """Record (in the yielded list) how each ``key_averages()`` call grouped its rows: its
    grouping arguments as written (``group_by_input_shape=True``, ``group_by_stack_n=5``
    where the profile recorded stacks, or both), or ``""`` for one row per operator."""

    def how(self, group_by_input_shape=False, group_by_stack_n=0, *args, **kwargs) -> str:
        by_stack = group_by_stack_n > 0 and self.with_stack  # no stacks, nothing to group by
        return ", ".join(
            [*(["group_by_input_shape=True"] if group_by_input_shape else []),
             *([f"group_by_stack_n={group_by_stack_n}"] if by_stack else [])]
        )  # fmt: skip

    return calls_to(torch.autograd.profiler.profile, "key_averages", note=how)


# The device-time columns of key_averages()' entries: all 0 in a profile of the CPU.
DEVICE_COLUMNS = frozenset(
    {"self_device_time_total", "device_time_total", "self_cuda_time_total", "cuda_time_total",
     "device_time", "cuda_time"}
)  # fmt: skip
_LIBRARIES = (str(Path(torch.__file__).parent), str(Path(__file__).parents[1]))


@contextmanager
def device_columns_read():
    """Record (in the yielded set) the device-time columns that the answer's own code read
    of ``key_averages()``' entries, or sorted a table by; not the reads of torch's code (a
    table reads every column) or the course's."""
    from torch.autograd.profiler_util import EventList, FunctionEventAvg

    read: set[str] = set()
    table, original = EventList.table, FunctionEventAvg.__getattribute__
    own = FunctionEventAvg.__dict__.get("__getattribute__")  # None where it is inherited

    def getattribute(self, name):
        if name in DEVICE_COLUMNS and not sys._getframe(1).f_code.co_filename.startswith(
            _LIBRARIES
        ):
            read.add(name)
        return original(self, name)

    def sorted_table(self, sort_by=None, *args, **kwargs):
        if sort_by in DEVICE_COLUMNS:
            read.add(sort_by)
        return table(self, sort_by, *args, **kwargs)

    FunctionEventAvg.__getattribute__ = getattribute  # type: ignore[method-assign]
    EventList.table = sorted_table  # type: ignore[method-assign]
    try:
        yield read
    finally:
        if own is None:
            del FunctionEventAvg.__getattribute__
        else:
            FunctionEventAvg.__getattribute__ = own  # type: ignore[method-assign]
        EventList.table = table  # type: ignore[method-assign]


# Columns of key_averages()' entries that newer torch calls by another name.
RENAMED = {"self_cuda_time_total": "self_device_time_total", "cuda_time_total": "device_time_total"}


def device_column_hint(got, what: str, columns) -> str:
    """The hint for an answer that ranked a CPU profile by a device-time column, or filtered
    it by one and raised (``got`` is then the exception)."""
    read = ", ".join(sorted(columns))
    did = (
        f"you returned {got!r}, ranked by {read}"
        if isinstance(got, str)
        else f"your code raised {type(got).__name__}: {got} after reading {read}"
    )
    # On a machine with a GPU, a ranking chosen by the machine reads the same column here
    machine = (
        ", the device you were given, not by whether the machine has a GPU: "
        "torch.cuda.is_available()"
        if torch.cuda.is_available()
        else ""
    )
    return (
        f"on cpu, for {what}, {did}: a profile of the CPU has no device time (each device "
        "column is 0 in every entry), so a ranking by it falls to the table's order and a "
        "filter on it keeps nothing. Rank by self_cpu_time_total when device is the CPU, and by "
        f"self_device_time_total on a GPU (choose by device.type{machine})"
    )


def profile_error_hint(error: Exception, what: str, device, columns) -> str | None:
    """The hint for an error of the answer's own that its profile explains: a column this
    torch renamed, or (on the CPU) a filter on device columns that kept nothing."""
    name = getattr(error, "name", None) if isinstance(error, AttributeError) else None
    if name in RENAMED:
        return (
            f"on {device.type}, for {what}, your code read {name}, which this version of torch "
            f"no longer has: the column is called {RENAMED[name]} now"
            + ("; and a profile of the CPU has no device time: rank by self_cpu_time_total "
               "when device is the CPU (choose by device.type)" if device.type == "cpu" else "")
        )  # fmt: skip
    return device_column_hint(error, what, columns) if device.type == "cpu" and columns else None


def gpu_machine_hint(got: str, what: str, columns) -> str:
    """The hint for an answer that, asked about the CPU on a machine with a GPU, ranked by a
    device column: it chose by the machine, not by ``device``."""
    ranked = f", ranked by {', '.join(sorted(columns))}" if columns else ""
    return (
        f"on a machine with a GPU, asked about device cpu, for {what}, you returned "
        f"{got!r}{ranked}: CPU work has no device time there either. Choose the column (and "
        "ProfilerActivity.CUDA) by device.type, the device you were given, not by whether "
        "the machine has a GPU (torch.cuda.is_available())"
    )


def name_check(got, want, what, device, misses, calls_read, table=None) -> None:
    """Fail ``got`` (not ``want``) with the hint its mistake earns: a call of ``events()``
    (``calls_read``), the profiler's own entry, a miss of the workload's, a name without its
    namespace, the leader of another column of its own ``table``, or the generic one."""
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
    said = misses(got, table) if callable(misses) else (misses or {}).get(got)
    if said:
        raise CheckFailed(f"on {device.type}: {said}")
    # the leader's name, or (its own profile led by another, on a busy machine) another's
    named = [k for k in (want, *(e.key for e in table or ())) if isinstance(k, str) and "::" in k]
    full = next((k for k in named if isinstance(got, str) and got == k.split("::", 1)[1]), None)
    if full is not None:
        raise CheckFailed(
            f"on {device.type}, for {what}, you returned {got!r}, the name of {full} without "
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


def returned_name(got) -> str:
    """What the answer returned, if it is a name (a ``str``)."""
    if not isinstance(got, str):
        raise CheckFailed(
            f"slowest_op returned a {type(got).__name__}: return the operator's name, "
            "e.g. the .key of an entry of prof.key_averages()"
        )
    return got


def asked(answer, fn, args, device, what, columns=frozenset()) -> str:
    """The name the answer returns; an error of its own that its profile explains is named
    (``columns``: the device columns it read)."""
    threads = torch.get_num_threads()
    try:
        with (
            calls_to(torch, "set_num_threads", lambda n: n) as set_to,
            calls_to(torch, "get_num_threads") as read,
        ):
            name = returned_name(answer(fn, args, device))
    except CheckFailed:
        raise
    except Exception as error:
        hint = profile_error_hint(error, what, device, columns)
        if hint is None:
            raise
        raise CheckFailed(hint) from error
    # left changed; or set without the count read first to put back (a leak, though the
    # count it set happens to be this process's: one thread, as under a checker's one_cpu_thread)
    if (now := torch.get_num_threads()) != threads or (set_to and not read):
        torch.set_num_threads(threads)
        left = (
            f"left torch's CPU threads at {now} (they were {threads})"
            if now != threads
            else f"called torch.set_num_threads({set_to[-1]}) without reading the count first "
            f"to set it back (here it was {threads} already)"
        )
        raise CheckFailed(
            f"your function {left}: torch.set_num_threads changes them for the whole process, "
            "for every later call of the caller's. Profile with the threads as they are, or "
            "set them back before returning"
        )
    return name
