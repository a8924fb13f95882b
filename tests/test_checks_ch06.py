"""The checker of 06.slowest_op: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path
from types import SimpleNamespace

import pytest
import torch
from grading_helpers import assert_fails, assert_passes

import d2lgpu
from d2lgpu.grading import check

PRODUCT = "a 512 x 512 product next to 20 tiny additions"
GPU_PRODUCT = "a 4096 x 4096 product next to 20 tiny additions"  # the scripted GPU's workload
MANY_EXPS = "one 512 x 512 product next to 80 exps of 250,000 numbers"
CONV = "a 3 x 3 convolution of 16 images of 16 x 32 x 32, forward and backward"
CUSTOM_OP = "d2lgpu_checks::row_norms_one_row_at_a_time_in_python_on_the_host"
CUSTOM = f"a custom operator ({CUSTOM_OP}) that computes 600 row norms in Python, and a sum"
PASSED = [
    "fn is called once to warm up, then profiled",
    f"{PRODUCT}: aten::mm",
    "exp of 2 million numbers next to a 32 x 32 product: aten::exp",
    "a softmax over 2 million numbers next to an allocation of four times as many: aten::_softmax",
    f"{MANY_EXPS}: aten::exp",
    f"{CONV}: aten::convolution_backward",
    f"{CUSTOM}: {CUSTOM_OP}",
    "the same fn on other args: profiled again",
    "on a machine with a GPU, asked about the CPU: the CPU's self time decides",
    "on a GPU (this machine's, or a scripted profile where there is none): the operator with "
    "the most device time, profiled with ProfilerActivity.CUDA after a synchronized warm-up",
]


def profiled_key(sort_key, *, warm_up=True, gpu_aware=True, sync=True, gpu_key=None):
    """slowest_op as a learner might write it; gpu_aware=False always profiles the CPU."""

    def answer(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        on_gpu = gpu_aware and device.type == "cuda"
        if warm_up:
            fn(*args)
            if sync and on_gpu:
                torch.cuda.synchronize(device)
        activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=activities) as prof:
            fn(*args)
        key = (gpu_key or "self_device_time_total") if on_gpu else sort_key
        return max(prof.key_averages(), key=lambda e: getattr(e, key)).key

    return answer


def test_slowest_op_reference_passes(monkeypatch):
    monkeypatch.delenv("KINETO_LOG_LEVEL", raising=False)
    assert assert_passes("06.slowest_op", profiled_key("self_cpu_time_total")).passed == PASSED
    # the profiler's C++ library is told not to log to stderr (unless the learner chose a level)
    assert d2lgpu.checks.ch06_performance.os.environ["KINETO_LOG_LEVEL"] == "6"


def test_one_profile_object_started_on_every_call_passes_without_torchs_warning(monkeypatch):
    # torch warns, once per process, when a profile object starts again: the checker calls an
    # answer that keeps one object many times, which is no mistake of the answer's.
    from torch.profiler import ProfilerActivity, profile
    from torch.profiler import profiler as torch_profiler

    monkeypatch.setattr(torch_profiler, "_WARNINGS_SHOWN", set())  # as in a fresh process
    cpu_profile = profile(activities=[ProfilerActivity.CPU])
    gpu_profile = profile(activities=[ProfilerActivity.CPU, ProfilerActivity.CUDA])

    def kept_profiles(fn, args, device):
        on_gpu = device.type == "cuda"
        fn(*args)
        d2lgpu.sync(device)
        with gpu_profile if on_gpu else cpu_profile as prof:
            fn(*args)
        key = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        return max(prof.key_averages(), key=lambda e: getattr(e, key)).key

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert_passes("06.slowest_op", kept_profiles)
    assert not [w for w in shown if "Profiler clears events" in str(w.message)], shown


def test_the_answers_own_warnings_still_show():
    # Only torch's warning about a profiler started again is silenced, not the learner's.
    def warns(fn, args, device):
        warnings.warn("my own note", UserWarning, stacklevel=1)
        return profiled_key("self_cpu_time_total")(fn, args, device)

    with warnings.catch_warnings(record=True) as shown:
        warnings.simplefilter("always")
        assert_passes("06.slowest_op", warns)
    assert any(str(w.message) == "my own note" for w in shown), [str(w.message) for w in shown]


def test_slowest_op_names_what_to_pass_and_what_to_return():
    hint = assert_fails("06.slowest_op", "slowest_op").hint
    assert hint == "pass the function itself: check('06.slowest_op', slowest_op)", hint
    entry = "slowest_op returned a FunctionEventAvg: return the operator's name, e.g. the .key "
    entry += "of an entry of prof.key_averages()"

    def the_entry(fn, args, device):  # forgot the .key
        on_gpu = device.type == "cuda"
        fn(*args)
        d2lgpu.sync(device)
        acts = [torch.profiler.ProfilerActivity.CPU]
        acts += [torch.profiler.ProfilerActivity.CUDA] if on_gpu else []
        with torch.profiler.profile(activities=acts) as prof:
            fn(*args)
        key = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        best = max(prof.key_averages(), key=lambda e: getattr(e, key))
        return best if on_gpu or not gpu_only else best.key

    for gpu_only in (False, True):  # forgot it everywhere, or only where device is a GPU
        result = assert_fails("06.slowest_op", the_entry)
        assert result.hint == entry, result.hint
        assert result.passed == (PASSED[:9] if gpu_only else []), result.passed


def test_slowest_op_alternatives_pass():
    def legacy_api(fn, args, device):
        import torch.autograd.profiler as legacy

        fn(*args)
        d2lgpu.sync(device)
        use = "cuda" if device.type == "cuda" else None
        with legacy.profile(use_device=use) as prof:
            fn(*args)
            d2lgpu.sync(device)
        attr = "self_device_time_total" if use else "self_cpu_time_total"
        return sorted(prof.key_averages(), key=lambda e: getattr(e, attr), reverse=True)[0].key

    def table_of_self_times(fn, args, device):
        import torch.profiler as tp

        fn(*args)
        if device.type == "cuda":
            torch.cuda.synchronize(device)
        acts = [tp.ProfilerActivity.CPU]
        if device.type == "cuda":
            acts.append(tp.ProfilerActivity.CUDA)
        with tp.profile(activities=acts) as prof:
            fn(*args)
        device_times = device.type != "cpu"
        best, name = -1.0, None
        for e in prof.key_averages():
            t = e.self_device_time_total if device_times else e.self_cpu_time_total
            if t > best:
                best, name = t, e.key
        return name

    assert_passes("06.slowest_op", legacy_api)
    assert_passes("06.slowest_op", table_of_self_times)


def test_slowest_op_rejects_always_profiling_the_cpu():
    result = assert_fails("06.slowest_op", profiled_key("self_cpu_time_total", gpu_aware=False))
    assert result.hint == (
        "on a GPU (device cuda:0) the profile recorded no device times: when device is a GPU, "
        "ask the profiler for ProfilerActivity.CUDA as well as ProfilerActivity.CPU, and "
        "compare self_device_time_total; tell a GPU by device.type == 'cuda' (a torch.device "
        "never equals a string such as 'cuda')"
    ), result.hint
    assert torch.device("cuda") != "cuda" and torch.device("cuda:0") != "cuda"  # as it says
    assert result.passed == PASSED[:9]  # the CPU workloads pass: only a GPU run can tell


SYNC_AFTER_WARM_UP = (
    "on a GPU the warm-up call only queues its work: synchronize after it "
    "(d2lgpu.sync(device) or torch.cuda.synchronize(device)) before profiling starts, or the "
    "warm-up's kernels run into the profile"
)


def test_slowest_op_rejects_a_warm_up_without_sync_on_a_gpu():
    hint = assert_fails("06.slowest_op", profiled_key("self_cpu_time_total", sync=False)).hint
    assert hint == SYNC_AFTER_WARM_UP, hint


@pytest.mark.parametrize("where", ["before the warm-up", "after the profile"])
def test_slowest_op_rejects_a_sync_elsewhere_than_after_the_warm_up(where):
    # A sync before the warm-up, or only once the profile has ended, leaves the warm-up's
    # kernels running when profiling starts.
    def misplaced_sync(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        on_gpu = device.type == "cuda"
        if where == "before the warm-up":
            d2lgpu.sync(device)
        fn(*args)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=acts) as prof:
            fn(*args)
        if where == "after the profile":
            d2lgpu.sync(device)
        key = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        return max(prof.key_averages(), key=lambda e: getattr(e, key)).key

    hint = assert_fails("06.slowest_op", misplaced_sync).hint
    assert hint == SYNC_AFTER_WARM_UP, hint


def test_slowest_op_rejects_cpu_times_and_total_times_on_a_gpu():
    assert_fails(
        "06.slowest_op",
        profiled_key("self_cpu_time_total", gpu_key="self_cpu_time_total"),
        # the CUDA runtime call with the most CPU time: cudaLaunchKernel in the scripted
        # profile, cudaDeviceSynchronize or another on a real GPU
        "you returned cuda",
        "a CUDA runtime call",
        "self_device_time_total",
    )
    hint = assert_fails(
        "06.slowest_op", profiled_key("self_cpu_time_total", gpu_key="device_time_total")
    ).hint
    assert hint == (  # no word of the CPU's device columns: this is a GPU
        "on cuda: you returned aten::matmul, whose *total* time includes aten::mm, the operator "
        "it calls: sort by self time (self_cpu_time_total, or self_device_time_total for a GPU) "
        "to find where the work is done"
    ), hint


def test_slowest_op_rejects_sorting_by_total_time():
    hint = assert_fails("06.slowest_op", profiled_key("cpu_time_total")).hint
    # the product's aten::matmul leads the total time; where a busy machine stalls the 20
    # additions, aten::add leads the answer's own profile, and the hint names it, by the
    # same column (as a clean-clone run saw)
    assert "*total* time" in hint and ("aten::matmul" in hint or "aten::add" in hint), hint
    if "aten::matmul" in hint:
        assert "sort by self time" in hint, hint


def test_a_name_kept_from_an_earlier_call_is_named_as_kept():
    right = profiled_key("self_cpu_time_total")
    kept: dict = {}

    def cached(fn, args, device):  # "profiling is expensive": by fn's name and the device
        key = (fn.__qualname__, device.type)
        if key not in kept:
            kept[key] = right(fn, args, device)
        return kept[key]

    assert_fails(
        "06.slowest_op",
        cached,
        "fn was never called in this call of slowest_op, though the earlier calls ran theirs: "
        "it returned a name kept from an earlier call",
    )


def test_fn_run_on_a_thread_of_the_answers_own_is_named():
    import threading

    right = profiled_key("self_cpu_time_total")

    def warmed_elsewhere(fn, args, device):  # "warm up in the background"
        warm = threading.Thread(target=fn, args=args)
        warm.start()
        warm.join()
        return right(fn, args, device)

    assert_fails(
        "06.slowest_op",
        warmed_elsewhere,
        "fn ran on a thread of your own: a call there may still be running when the profile "
        "starts, beside the profiled call (and the profiler records only the thread that opened "
        "it)",
    )


def test_no_call_of_fn_is_named_by_whether_an_earlier_call_ran_its_own():
    from d2lgpu.checks._ch06_calls import calls_check
    from d2lgpu.checks._util import CheckFailed

    with pytest.raises(CheckFailed, match=r"^fn was never called: slowest_op must run"):
        calls_check([], later=False)
    with pytest.raises(CheckFailed, match=r"^fn was never called in this call of slowest_op"):
        calls_check([], later=True)
    calls_check([False, True], later=True)  # a warm-up, then one profiled call


def test_slowest_op_rejects_sorting_by_calls():
    assert_fails("06.slowest_op", profiled_key("count"), "called most often")


def test_slowest_op_rejects_a_profile_without_warm_up_and_a_hard_coded_name():
    hint = assert_fails("06.slowest_op", profiled_key("self_cpu_time_total", warm_up=False)).hint
    assert hint == (
        "the first call of fn was already profiled: call fn(*args) once before profiling (a "
        "warm-up), so that one-off costs do not pollute the profile"
    ), hint
    hint = assert_fails("06.slowest_op", lambda fn, args, device: "aten::mm").hint
    assert hint == (
        "fn was never called: slowest_op must run fn(*args) itself, once as a warm-up and once "
        "inside a torch.profiler.profile block, and return the operator that profile shows (a "
        "name written from memory is wrong on another workload)"
    ), hint

    def timed_outside(fn, args, device):  # runs fn, with a clock instead of the profiler
        fn(*args)
        fn(*args)
        return "aten::mm"

    assert assert_fails("06.slowest_op", timed_outside).hint == (
        "fn ran, but never while the profiler was recording: call it inside the "
        "torch.profiler.profile block"
    )


def hard_coded(name, on=("cpu", "cuda")):
    """Profiles fn rightly, then returns ``name`` where ``device.type`` is in ``on`` (reading no
    table there), and the right entry elsewhere: a name written from memory."""

    from torch.profiler import ProfilerActivity, profile

    def answer(fn, args, device):
        if device.type not in on:
            return profiled_key("self_cpu_time_total")(fn, args, device)
        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
        with profile(activities=acts):
            fn(*args)
        return name

    return answer


def test_a_name_fn_does_not_run_gets_what_was_wanted():
    hint = assert_fails("06.slowest_op", hard_coded("aten::sum")).hint
    assert hint == (
        f"on cpu, for {PRODUCT}, the operator with the most self time is aten::mm; you "
        "returned 'aten::sum': take the .key of the entry of prof.key_averages() with the "
        "largest self time"
    ), hint
    hint = assert_fails("06.slowest_op", hard_coded("aten::sum", on=("cuda",))).hint
    assert hint == (
        f"on cuda, for {GPU_PRODUCT}, the operator with the most self time is aten::mm; you "
        "returned 'aten::sum': take the .key of the entry of prof.key_averages() with the "
        "largest self time on the device (self_device_time_total)"
    ), hint


def test_a_wrong_name_on_the_workload_with_a_hint_of_its_own_gets_what_was_wanted():
    # The exps' workload has a hint for aten::mm alone: another name gets the general one.
    def wrong_on_the_exps(fn, args, device):
        on_exps = len(args) == 2 and isinstance(args[1], list)  # the 80 exps on 8 tensors
        return hard_coded("aten::sum", on=("cpu",) if on_exps else ())(fn, args, device)

    hint = assert_fails("06.slowest_op", wrong_on_the_exps).hint
    assert hint == (
        f"on cpu, for {MANY_EXPS}, the operator with the most self time is aten::exp; you "
        "returned 'aten::sum': take the .key of the entry of prof.key_averages() with the "
        "largest self time"
    ), hint


def test_a_name_with_a_hint_of_its_own_gets_it_without_a_table():
    # aten::add read from no table: its own hint, and no word of sorting (that is matmul's)
    hint = assert_fails("06.slowest_op", hard_coded("aten::add")).hint
    assert hint == (
        "on cpu: you returned aten::add, the operator called most often (count), not the one "
        "that takes the most time: compare self times"
    ), hint
    hint = assert_fails("06.slowest_op", hard_coded("cudaDeviceSynchronize", on=("cuda",))).hint
    assert hint == (
        "on cuda: you returned cudaDeviceSynchronize, a CUDA runtime call: its time is the "
        "CPU's, launching or waiting for kernels; on a GPU the work is the device's, so sort by "
        "self_device_time_total"
    ), hint


def test_an_answer_that_read_no_table_is_run_again_once():
    # Its first profile stalled (a busy machine made the additions lead); with no table read
    # to tell, the checker runs it once more.
    first = []

    def stalled_once(fn, args, device):
        if not first:
            first.append(hard_coded("aten::add")(fn, args, device))
            return first[0]
        return profiled_key("self_cpu_time_total")(fn, args, device)

    assert assert_passes("06.slowest_op", stalled_once).passed == PASSED


# ---------------------------------------------------------------------------------------------
# On a real GPU (on a CPU, the tests above run the CUDA branches with fakes).

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")


def warmed_profile(pick, gpu_sync=d2lgpu.sync, calls=1):
    """slowest_op that warms up, syncs and profiles ``calls`` calls (one), then returns
    ``pick(prof, key)`` (``key``: the self time that counts on this device);
    ``gpu_sync(device)`` waits on a GPU."""

    def answer(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        on_gpu = device.type == "cuda"
        fn(*args)
        if on_gpu:
            gpu_sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=acts) as prof:
            for _ in range(calls):
                fn(*args)
        return pick(prof, "self_device_time_total" if on_gpu else "self_cpu_time_total")

    return answer


def per_call(style):
    """Ranks the operators by self time per call: right whenever the slowest is called once."""

    def pick(prof, key):
        rows = prof.key_averages()
        if style == "max":
            return max(rows, key=lambda e: getattr(e, key) / e.count).key
        means = {e.key: getattr(e, key) / e.count for e in rows}
        return sorted(means, key=means.get)[-1]

    return warmed_profile(pick)


def test_slowest_op_rejects_ranking_by_time_per_call():
    for style in ("max", "sorted dict"):
        result = assert_fails(
            "06.slowest_op", per_call(style), "single call is the longest", "80 times"
        )
        assert len(result.passed) == 4, result.passed  # right on the 3 workloads of one call


def test_ranking_rows_grouped_by_input_shape_is_named_where_it_splits_the_operator():
    """Each operator of the first workloads runs on one shape, so its one row is its total and
    the ranking is right there; the hint comes from the workload whose exps ran on 8 shapes."""

    def by_shape(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        fn(*args)
        with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
            fn(*args)
        rows = prof.key_averages(group_by_input_shape=True)
        return max(rows, key=lambda e: e.self_cpu_time_total).key

    result = assert_fails(
        "06.slowest_op", by_shape, "80 exps", "group_by_input_shape=True", "run here on 8 shapes"
    )
    assert len(result.passed) == 4, result.passed  # right on the workloads of one shape each

    def by_shape_summed(fn, args, device):  # the rows of each operator summed: its total
        from torch.profiler import ProfilerActivity, profile

        on_gpu = device.type == "cuda"
        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=acts, record_shapes=True) as prof:
            fn(*args)
        column = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        totals: dict[str, float] = {}
        for e in prof.key_averages(group_by_input_shape=True):
            totals[e.key] = totals.get(e.key, 0) + getattr(e, column)
        return max(totals, key=totals.__getitem__)

    cls = torch.autograd.profiler.profile
    key_averages = cls.key_averages

    stalled: list = []  # how many grouped tables to give a stalled exp row, first

    def quiet(self, *args, **kwargs):  # the product's row leads each exp row, not their sum
        table = key_averages(self, *args, **kwargs)
        exps = [e for e in table if e.key == "aten::exp"]
        if len(exps) > 1:
            each = sum(e.self_cpu_time_total for e in exps) / len(exps)
            for e in table:
                if e.key in ("aten::exp", "aten::mm"):
                    e.self_cpu_time_total = each * (2 if e.key == "aten::mm" else 1)
            if stalled and (kind := stalled.pop()):  # a busy machine's: a stalled call
                if kind == "mm":  # the product's, past the exps' total
                    next(e for e in table if e.key == "aten::mm").self_cpu_time_total = each * 9
                else:
                    exps[0].self_cpu_time_total = each * 3
        return table

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(cls, "key_averages", quiet)
        assert assert_passes("06.slowest_op", by_shape_summed).passed == PASSED
        assert_fails("06.slowest_op", by_shape, "you returned 'aten::mm'", "run here on 8 shapes")
        stalled[:] = [True, True]  # an exp row leads twice: asked again, as a busy machine's
        assert assert_passes("06.slowest_op", by_shape_summed).passed == PASSED
        stalled[:] = ["mm", "mm"]  # the product led even the sums twice: asked again too
        assert assert_passes("06.slowest_op", by_shape_summed).passed == PASSED
        stalled[:] = [True] * 9  # an exp row leads every time: asked on a quiet machine
        assert assert_passes("06.slowest_op", by_shape_summed).passed == PASSED
        assert_fails("06.slowest_op", by_shape, "you returned 'aten::exp'", "8 shapes")


def from_events(cpu_key, returned=None):
    """Reads prof.events(), one entry per call, instead of key_averages(); appends what it
    returns on the CPU to ``returned`` when given."""

    def pick(prof, key):
        key = key if key.startswith("self_device") else cpu_key
        name = max(prof.events(), key=lambda e: getattr(e, key)).name
        if returned is not None:
            returned.append(name)
        return name

    return warmed_profile(pick)


EVENTS_READ = (
    "from prof.events(), which lists every call separately: an operator called many times has "
    "many entries, each with a part of its time. prof.key_averages() sums them per operator; "
    "take the entry with the largest self time there"
)


def test_slowest_op_names_events_read_instead_of_key_averages():
    # the longest single call: right until an operator's many calls add up to more
    hint = assert_fails("06.slowest_op", from_events("self_cpu_time_total")).hint
    assert hint.startswith(f"on cpu, for {MANY_EXPS}, you returned "), hint
    assert hint.endswith(EVENTS_READ), hint
    # the longest single call by total time: aten::matmul, whose total includes aten::mm. On
    # a busy machine a call of aten::add can stall for longer, and the answer returns that
    # (its hint then names add's total): graded again, up to 5 times, until it returns matmul.
    returned: list[str] = []
    answer = from_events("cpu_time_total", returned)
    for _ in range(5):
        result = check("06.slowest_op", answer, quiet=True)
        if returned[-1] == "aten::matmul":
            break
    assert returned[-1] == "aten::matmul", f"5 profiles' longest calls by total: {returned}"
    assert result.status == "failed" and "*total* time includes aten::mm" in result.hint, result


def test_a_stalled_call_read_from_events_is_run_again():
    # A busy machine stalled one of the 80 exps in the first profile: the answer's longest
    # single call is then one of the slowest operator's, right by chance. The checker runs it
    # again, and on the next profile the longest call is the product again.
    from torch.profiler.profiler import _KinetoProfile

    events, left = _KinetoProfile.events, [1]

    def one_exp_stalled(self):
        listed = events(self)
        exps = [e for e in listed if e.name == "aten::exp"]
        if len(exps) > 1 and left[0]:  # the workload of 80 exps
            left[0] -= 1
            exps[0].time_range.end += 10**6  # a second longer
        return listed

    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(_KinetoProfile, "events", one_exp_stalled)
        hint = assert_fails("06.slowest_op", from_events("self_cpu_time_total")).hint
    assert left == [0] and hint.startswith(f"on cpu, for {MANY_EXPS}, you returned "), hint
    assert hint.endswith(EVENTS_READ), hint


def summed_events(column):
    """Sums prof.events() per name itself, ranked by ``column`` (or the device's on a GPU)."""

    def pick(prof, key):
        key = key if key.startswith("self_device") else column
        sums = {}
        for e in prof.events():
            sums[e.key] = sums.get(e.key, 0) + getattr(e, key)
        return max(sums, key=sums.get)

    return warmed_profile(pick)


def test_events_summed_per_name_by_self_time_pass_and_by_total_time_are_told_so():
    # on the scripted GPU too: its events() lists each row's calls, adding up to the row
    assert_passes("06.slowest_op", summed_events("self_cpu_time_total"))
    hint = assert_fails("06.slowest_op", summed_events("cpu_time_total")).hint
    assert "*total* time includes aten::mm" in hint and "prof.events()" not in hint, hint


def test_a_table_of_the_scripted_gpu_profile_prints():
    # an answer that prints its table, sorted by the device's self time, as the chapter does
    def printed(prof, key):
        rows = prof.key_averages()
        print(rows.table(sort_by=key.replace("device", "cuda"), row_limit=5))
        print(prof.events().table(sort_by=key, row_limit=5))
        return max(rows, key=lambda e: getattr(e, key)).key

    assert_passes("06.slowest_op", warmed_profile(printed))


@pytest.mark.parametrize("calls", [2, 3])
def test_more_than_one_profiled_call_is_named(calls):
    def profiles_several(prof, key):
        return max(prof.key_averages(), key=lambda e: getattr(e, key)).key

    hint = assert_fails("06.slowest_op", warmed_profile(profiles_several, calls=calls)).hint
    assert hint == (
        f"fn ran {calls} times while the profiler was recording: profile one call of fn after "
        "the warm-up (a schedule's warm-up and active steps record too)"
    ), hint


def test_slowest_op_other_ways_of_waiting_for_the_gpu_pass():
    def waits(sync):
        return warmed_profile(
            lambda prof, key: max(prof.key_averages(), key=lambda e: getattr(e, key)).key, sync
        )

    def with_an_event(device):
        done = torch.cuda.Event()
        done.record(torch.cuda.current_stream(device))
        done.synchronize()

    def on_device(device):  # the current GPU made device's for the block
        with torch.cuda.device(device):
            torch.cuda.synchronize()

    def made_current(device):
        torch.cuda.set_device(device)
        torch.cuda.synchronize()

    assert_passes("06.slowest_op", waits(lambda device: torch.accelerator.synchronize(device)))
    assert_passes(
        "06.slowest_op", waits(lambda device: torch.cuda.current_stream(device).synchronize())
    )
    assert_passes("06.slowest_op", waits(with_an_event))
    assert_passes("06.slowest_op", waits(on_device))
    assert_passes("06.slowest_op", waits(made_current))


@pytest.mark.cuda
@requires_cuda
def test_on_a_gpu_slowest_op_profiles_real_gpu_workloads():
    from d2lgpu.checks._gpu_profile import watched_gpu

    assert_passes("06.slowest_op", profiled_key("self_cpu_time_total"))
    assert_fails(
        "06.slowest_op",
        profiled_key("self_cpu_time_total", gpu_aware=False),
        "recorded no device times",
    )
    assert_fails(
        "06.slowest_op", profiled_key("self_cpu_time_total", sync=False), "synchronize after it"
    )
    with watched_gpu() as state:
        torch.cuda.synchronize()
    assert state["log"] == [("sync", False, torch.cuda.current_device())]


@pytest.mark.parametrize(
    "name, says",
    [
        (
            "Activity Buffer Request",
            " (CUPTI's buffer for GPU activity): ask for ProfilerActivity.CUDA only when device "
            "is a GPU",
        ),
        ("ProfilerStep#3", ": skip the entries that are not operators"),
    ],
)
def test_an_entry_of_the_profilers_own_work_is_named(name, says):
    # On an H200, an answer that asked for CUDA activity on the CPU device returned
    # "Activity Buffer Request": the largest CPU self time there, and not an operator of fn.
    def profiler_entry(fn, args, device):
        fn(*args)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]):
            fn(*args)
        return name

    hint = assert_fails("06.slowest_op", profiler_entry).hint
    assert hint == (
        f"on cpu, for {PRODUCT}, you returned {name!r}, an entry of the profiler's own work, "
        f"not an operator of fn{says}"
    ), hint


def test_a_device_column_on_the_cpu_or_the_first_entry_is_told_how_to_sort():
    # Red-team answers: self_device_time_total on the CPU (all zeros there) and the first,
    # unsorted entry both return aten::matmul; the hint says what to sort by on the CPU.
    def first_entry(fn, args, device):
        fn(*args)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            fn(*args)
        return prof.key_averages()[0].key

    hint = assert_fails("06.slowest_op", first_entry, "aten::matmul").hint
    assert "if you took the first entry, or sorted by a device column (all zeros on the " \
        "CPU), sort by self_cpu_time_total instead" in hint  # fmt: skip
    # a device column read by the answer's own code is named, however it ranked by it
    hint = assert_fails("06.slowest_op", profiled_key("self_device_time_total")).hint
    assert hint.startswith(
        "on cpu, for a 512 x 512 product next to 20 tiny additions, you returned "
        "'aten::matmul', ranked by self_device_time_total: a profile of the CPU has no device "
        "time (each device column is 0 in every entry), so a ranking by it falls to the "
        "table's order"
    ), hint
    assert hint.endswith(
        "Rank by self_cpu_time_total when device is the CPU, and by self_device_time_total on "
        "a GPU (choose by device.type)"
    )


def test_a_filter_on_a_device_column_on_the_cpu_is_named_not_only_its_crash():
    def kept_if_on_device(fn, args, device):
        fn(*args)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            fn(*args)
        rows = [e for e in prof.key_averages() if e.device_time_total > 0]
        return max(rows, key=lambda e: e.self_cpu_time_total).key

    try:
        max([])
    except ValueError as empty:  # its words are this Python's (3.12: "iterable argument")
        message = str(empty)
    hint = assert_fails("06.slowest_op", kept_if_on_device).hint
    assert hint.startswith(
        f"on cpu, for a 512 x 512 product next to 20 tiny additions, your code raised "
        f"ValueError: {message} after reading device_time_total: a profile of the CPU has no "
        "device time"
    ), hint
    assert "a filter on it keeps nothing" in hint


def test_a_column_newer_torch_renamed_is_named_with_its_new_name():
    def old_name(fn, args, device):
        fn(*args)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            fn(*args)
        return max(prof.key_averages(), key=lambda e: e.self_cuda_time_total).key

    from torch.autograd.profiler_util import FunctionEventAvg

    if hasattr(FunctionEventAvg(), "self_cuda_time_total"):  # an older torch still has it
        hint = assert_fails("06.slowest_op", old_name).hint
        assert "ranked by self_cuda_time_total: a profile of the CPU has no device time" in hint
        return
    hint = assert_fails("06.slowest_op", old_name).hint
    assert hint == (
        "on cpu, for a 512 x 512 product next to 20 tiny additions, your code read "
        "self_cuda_time_total, which this version of torch no longer has: the column is "
        "called self_device_time_total now; and a profile of the CPU has no device time: rank "
        "by self_cpu_time_total when device is the CPU (choose by device.type)"
    )


def column_chosen_by(gpu_test, gpu_column="self_device_time_total"):
    """slowest_op that ranks by ``gpu_column`` where ``gpu_test(device)``, else by CPU time."""

    def answer(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        gpu = gpu_test(device)
        fn(*args)
        if gpu:
            torch.cuda.synchronize(device if device.type == "cuda" else None)
        with profile(activities=[ProfilerActivity.CPU, *[ProfilerActivity.CUDA] * gpu]) as p:
            fn(*args)
        column = gpu_column if gpu else "self_cpu_time_total"
        return max(p.key_averages(), key=lambda e: getattr(e, column)).key

    return answer


@pytest.mark.skipif(torch.cuda.is_available(), reason="the scripted GPU's workloads")
def test_a_renamed_column_read_only_where_a_gpu_is_named_with_its_workload():
    renamed = "self_cuda_time_total"
    hint = assert_fails("06.slowest_op", column_chosen_by(lambda d: d.type == "cuda", renamed)).hint
    assert hint.startswith(
        f"on cuda, for {GPU_PRODUCT}, your code read self_cuda_time_total, which this version"
    ), hint
    by_the_machine = column_chosen_by(lambda d: torch.cuda.is_available(), renamed)
    hint = assert_fails("06.slowest_op", by_the_machine)
    assert hint.hint.startswith(f"on cpu, for {MANY_EXPS}, your code read self_cuda_time_total")


def test_asked_about_the_cpu_on_a_machine_with_a_gpu_the_cpus_column_decides():
    by_the_machine = column_chosen_by(lambda d: torch.cuda.is_available())  # not by device

    hint = assert_fails("06.slowest_op", by_the_machine).hint
    if torch.cuda.is_available():  # this machine's GPU: the first CPU workload tells
        assert hint == (
            f"on cpu, for {PRODUCT}, you returned 'aten::matmul', ranked by "
            "self_device_time_total: a profile of the CPU has no device time (each device column "
            "is 0 in every entry), so a ranking by it falls to the table's order and a filter on "
            "it keeps nothing. Rank by self_cpu_time_total when device is the CPU, and by "
            "self_device_time_total on a GPU (choose by device.type, the device you were given, "
            "not by whether the machine has a GPU: torch.cuda.is_available())"
        ), hint
        return
    assert hint == (
        "on a machine with a GPU, asked about device cpu, for one 512 x 512 product next to "
        "80 exps of 250,000 numbers, you returned 'aten::matmul', ranked by "
        "self_device_time_total: CPU work has no device time there either. Choose the column "
        "(and ProfilerActivity.CUDA) by device.type, the device you were given, not by whether "
        "the machine has a GPU (torch.cuda.is_available())"
    )
    # the right answers' reports say that it was asked
    passed = str(assert_passes("06.slowest_op", profiled_key("self_cpu_time_total")))
    assert "on a machine with a GPU, asked about the CPU: the CPU's self time decides" in passed


def test_errors_a_profile_explains_are_told_apart_from_the_rest():
    from d2lgpu.checks._ch06_reads import asked, device_column_hint, profile_error_hint
    from d2lgpu.checks._util import CheckFailed

    cpu, gpu, what = torch.device("cpu"), torch.device("cuda:0"), "a product"
    gone = AttributeError("no attribute", name="self_cuda_time_total")
    assert profile_error_hint(gone, what, gpu, set()) == (
        "on cuda, for a product, your code read self_cuda_time_total, which this version of "
        "torch no longer has: the column is called self_device_time_total now"
    )
    assert profile_error_hint(gone, what, cpu, set()).endswith(
        "now; and a profile of the CPU has no device time: rank by self_cpu_time_total when "
        "device is the CPU (choose by device.type)"
    )
    # only an AttributeError names a column; other errors only where a column was read on cpu
    assert profile_error_hint(ImportError(name="self_cuda_time_total"), what, gpu, set()) is None
    assert profile_error_hint(ValueError("empty"), what, cpu, set()) is None
    assert profile_error_hint(ValueError("empty"), what, gpu, {"device_time_total"}) is None
    assert "ranked by device_time_total, self_device_time_total:" in device_column_hint(
        "aten::mm", what, {"self_device_time_total", "device_time_total"}
    )

    def raises(error):
        def answer(fn, args, device):
            raise error

        return answer

    with pytest.raises(CheckFailed, match="^the checker's own$"):  # passed on as it is
        asked(raises(CheckFailed("the checker's own")), None, (), cpu, what, {"cuda_time"})
    with pytest.raises(ValueError):  # the learner's own, with no column read: a crash
        asked(raises(ValueError("empty")), None, (), cpu, what)


def test_a_table_grouped_by_shape_or_stack_is_told_from_one_that_is_not():
    from d2lgpu.checks._ch06_reads import grouped_rows

    with torch.profiler.profile(record_shapes=True) as prof:
        torch.ones(3).sum()
    with torch.autograd.profiler.profile(record_shapes=True) as legacy:
        torch.ones(3).sum()
    # As a profile made with with_stack=True says; recording the stacks themselves was seen
    # to spin for many minutes in a long-lived worker of the suite.
    legacy.with_stack = True
    with grouped_rows() as grouped:
        prof.key_averages()
        prof.key_averages(group_by_input_shape=True)
        prof.key_averages(group_by_stack_n=5)  # no stacks recorded: nothing to group by
        legacy.key_averages()  # the legacy class's own default
        legacy.key_averages(True, 3)
    assert grouped == [
        "",
        "group_by_input_shape=True",
        "",
        "",
        "group_by_input_shape=True, group_by_stack_n=3",
    ]


def test_device_columns_read_by_torch_or_by_a_right_answer_are_no_mistake():
    def both_columns(fn, args, device):  # reads the device column, ranks by the CPU's too
        from torch.profiler import ProfilerActivity, profile

        gpu = device.type == "cuda"
        fn(*args)
        if gpu:
            torch.cuda.synchronize(device)
        with profile(activities=[ProfilerActivity.CPU, *[ProfilerActivity.CUDA] * gpu]) as p:
            fn(*args)
        print(p.key_averages().table(sort_by="self_cpu_time_total", row_limit=3))
        rows = p.key_averages()
        return max(rows, key=lambda e: (e.self_device_time_total, gpu or e.self_cpu_time_total)).key

    assert_passes("06.slowest_op", both_columns)
    from torch.autograd.profiler_util import EventList, FunctionEventAvg

    from d2lgpu.checks._ch06_reads import device_columns_read

    with torch.profiler.profile() as prof:
        torch.ones(3).sum()
    with device_columns_read() as read:
        prof.key_averages().table()  # torch's own code reads every column
        assert read == set()
        prof.key_averages().table(sort_by="cuda_time_total")
        prof.key_averages()[0].self_device_time_total  # noqa: B018
    assert read == {"cuda_time_total", "self_device_time_total"}
    assert "__getattribute__" not in FunctionEventAvg.__dict__
    assert EventList.table.__name__ == "table"


def test_the_prompt_asks_for_the_sync_the_checker_requires():
    # The checker fails a GPU answer without a sync after the warm-up (the profiler itself
    # synchronizes when it stops): the exercise must ask for that one.
    import json
    from pathlib import Path

    nb = json.loads((Path(__file__).parents[1] / "exercises" / "06_performance.ipynb").read_text())
    prompt = next(
        "".join(c["source"]) for c in nb["cells"] if "Exercise 6.1" in "".join(c["source"])
    )
    assert "synchronize `device` after the warm-up" in prompt
    assert "before the profile\nends" not in prompt and "before the profile ends" not in prompt


# A busy machine stalls one operator of a profile now and then: the answer is judged on its
# own profile (what key_averages() gave it), not only against the operator the checker knows.


@pytest.fixture
def stalled(monkeypatch):
    """``stalled(k)``: the next ``k`` profiles of the first workload show aten::_to_copy (the
    tiny additions' dtype copies) with a second of self time, as a process descheduled in
    one of them shows it; ``stalled(k, total=True)``: and of total time; ``key=``: another
    entry, in the profiles of the workloads that have it."""

    def stall(times, total=False, key="aten::_to_copy"):
        cls = torch.autograd.profiler.profile
        key_averages, left = cls.key_averages, [times]

        def stalled_key_averages(self, *args, **kwargs):
            table = key_averages(self, *args, **kwargs)
            entries = [e for e in table if e.key == key]
            if entries and left[0] > 0:
                left[0] -= 1
                entries[0].self_cpu_time_total += 1e6  # microseconds
                entries[0].cpu_time_total += 1e6 if total else 0
            return table

        monkeypatch.setattr(cls, "key_averages", stalled_key_averages)

    return stall


@pytest.mark.parametrize("times", [1, 3, 100])
def test_a_profile_led_by_a_stalled_operator_is_run_again_and_a_right_answer_passes(stalled, times):
    # 100: the machine stays busy; the answer named its own profile's largest entry each time
    stalled(times)
    assert assert_passes("06.slowest_op", profiled_key("self_cpu_time_total")).passed == PASSED


def on_trace_ready_key(fn, args, device):
    """A right answer that ranks its profile in the profiler's on_trace_ready callback."""
    found = []

    def pick(prof):
        column = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
        found.append(max(prof.key_averages(), key=lambda e: getattr(e, column)).key)

    fn(*args)
    d2lgpu.sync(device)
    acts = [torch.profiler.ProfilerActivity.CPU]
    acts += [torch.profiler.ProfilerActivity.CUDA] if device.type == "cuda" else []
    with torch.profiler.profile(activities=acts, on_trace_ready=pick):
        fn(*args)
    return found[-1]


@pytest.mark.parametrize("times", [1, 100])
@pytest.mark.parametrize("node", ["torch::autograd::AccumulateGrad", "SumBackward0"])
@pytest.mark.parametrize("answer", [profiled_key("self_cpu_time_total"), on_trace_ready_key])
def test_a_stalled_autograd_node_leading_the_backward_passes_a_right_answer(
    stalled, times, node, answer
):
    # An autograd node (not an aten:: operator) stalled until it led the convolution's
    # profile: aten::convolution_backward still leads the aten:: operators, a ranking the
    # exercise accepts too, but the answer ranked all the entries and named the node
    stalled(times, key=node)
    assert assert_passes("06.slowest_op", answer).passed == PASSED


def test_four_profiles_in_a_row_led_by_the_named_entry_pass(stalled):
    # A stall that leads total time too: ranking by total time names the stalled entry, the
    # leader of its own profile's self times, as a right answer does. The checker follows it
    # for four profiles in a row (the limit), and the first workload passes. (With three, the
    # fourth profile decides, and on a busy machine its total-time leader may lead self time
    # too: no test asserts that verdict.) What the rule does on the other workloads, their
    # profiles decide; on the softmax's it always fails.
    stalled(4, total=True)
    result = check("06.slowest_op", profiled_key("cpu_time_total"), quiet=True)
    assert f"{PRODUCT}: aten::mm" in result.passed and result.status == "failed", str(result)


def test_a_wrong_rule_still_fails_on_a_busy_machine(stalled):
    stalled(100)
    assert_fails("06.slowest_op", profiled_key("count"), "called most often")
    # Which entry leads total time on a busy machine depends on it (aten::matmul on a quiet
    # one, aten::add under load): the hint names what the answer returned, and the mistake.
    named = []

    def by_total_time(fn, args, device):
        named.append(profiled_key("cpu_time_total")(fn, args, device))
        return named[-1]

    hint = assert_fails("06.slowest_op", by_total_time, "*total* time").hint
    assert f"you returned {named[-1]}," in hint, hint


@pytest.mark.parametrize("column", ["cpu_time_total", "count"])
def test_the_leader_of_another_column_of_the_answers_own_profile_is_named(column):
    # The answer's own profile decides which entry a wrong column leads: an operator the
    # checker has no hint for by name still gets the column's mistake.
    def another_leader(fn, args, device):
        fn(*args)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            fn(*args)
        named = {"aten::mm", "aten::exp", "aten::matmul", "aten::add"}  # with hints of their own
        entry = min(
            (e for e in prof.key_averages() if e.key.startswith("aten::") and e.key not in named),
            key=lambda e: e.self_cpu_time_total,
        )
        setattr(entry, column, getattr(entry, column) + 10**9)
        returned.append(entry.key)
        return entry.key

    returned: list[str] = []
    says = {"cpu_time_total": "the largest *total* time", "count": "called most often"}[column]
    hint = assert_fails("06.slowest_op", another_leader, says).hint
    assert f"you returned {returned[-1]}, which in your own profile has" in hint, hint
    assert "sort by self time (self_cpu_time_total)" in hint, hint


def test_an_aten_only_filter_is_named_where_a_custom_operator_leads():
    # The filter leaves out kernels, CUDA runtime calls and the profiler's own entries, and
    # changes no answer where every operator is aten's; the prompt asks for any entry, and a
    # custom operator's workload (red-team rounds 55 and 64) tells the filter apart.
    def aten_only(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
        with profile(activities=acts) as prof:
            fn(*args)
        key = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
        ops = [e for e in prof.key_averages() if e.key.startswith("aten::")]
        return max(ops, key=lambda e: getattr(e, key)).key

    result = assert_fails(
        "06.slowest_op", aten_only, f"the entry with the most self time is {CUSTOM_OP}"
    )
    assert result.passed == PASSED[:6], result.passed


def test_a_kernel_tied_with_its_operator_on_a_gpu_passes():
    # On a GPU an operator's kernel is listed after it with the same self device time: the
    # last of an ascending sort returns the kernel, an entry with the largest time all the same.
    def last_of_ascending(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device.type == "cuda" else [])
        with profile(activities=acts) as prof:
            fn(*args)
        key = "self_device_time_total" if device.type == "cuda" else "self_cpu_time_total"
        return sorted(prof.key_averages(), key=lambda e: getattr(e, key))[-1].key

    assert_passes("06.slowest_op", last_of_ascending)


@pytest.fixture
def exp_stalled(monkeypatch):
    """Every profile shows one call of aten::exp a second longer, the longest call of its
    profile, as a machine that stays busy shows it (its totals include the stall too)."""
    from torch.profiler.profiler import _KinetoProfile

    events = _KinetoProfile.events

    def stalled_events(self):
        listed = events(self)
        calls = [e for e in listed if e.name == "aten::exp"]
        if calls and not getattr(calls[0], "stalled", False):
            calls[0].time_range.end += 1e6  # microseconds
            calls[0].stalled = True
        return listed

    monkeypatch.setattr(_KinetoProfile, "events", stalled_events)


def test_ranking_calls_fails_where_every_profile_has_a_stalled_call(exp_stalled):
    # the longest single call is aten::exp's, as is the operator's total: the profile cannot
    # tell the rules apart, and the answer is asked about a quiet machine's
    hint = assert_fails(
        "06.slowest_op", from_events("self_cpu_time_total"), "prof.events()", "key_averages()"
    ).hint
    assert "80 exps" in hint, hint
    for answer in (profiled_key("self_cpu_time_total"), summed_events("self_cpu_time_total")):
        assert_passes("06.slowest_op", answer)


def test_a_gpu_answer_ranking_calls_by_total_time_is_named_from_the_events_it_read():
    # on the scripted GPU, the events an answer read are summed per operator for the hint
    def pick(prof, key):
        if key == "self_cpu_time_total":
            return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key
        return max(prof.events(), key=lambda e: e.cpu_time_total).name

    if torch.cuda.is_available():  # a real GPU's longest event: the wait at the profile's end
        hint = assert_fails("06.slowest_op", warmed_profile(pick)).hint
        assert hint.startswith("on cuda: you returned cudaDeviceSynchronize, a CUDA runtime "), hint
        return
    hint = assert_fails("06.slowest_op", warmed_profile(pick), "*total* time includes").hint
    assert "could not use" not in hint, hint


def by_shape(mixed=False, column="self_cpu_time_total"):
    """Ranks the rows of key_averages(group_by_input_shape=True), one per operator and input
    shape, by ``column`` on the CPU; ``mixed``: after printing the per-operator table."""
    from torch.profiler import ProfilerActivity, profile

    def answer(fn, args, device):
        on_gpu = device.type == "cuda"
        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=acts, record_shapes=True) as prof:
            fn(*args)
        if mixed:  # printed, then left for the rows per shape
            str(prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=5))
        key = "self_device_time_total" if on_gpu else column
        rows = prof.key_averages(group_by_input_shape=True)
        returned.append(max(rows, key=lambda e: getattr(e, key)).key)
        return returned[-1]

    returned: list[str] = []
    return answer, returned


def by_shape_hint(got):
    return (
        f"on cpu, for {MANY_EXPS}, you returned {got!r} from "
        "prof.key_averages(group_by_input_shape=True): grouping by input shape splits an "
        "operator's time into one row per shape, and aten::exp, run here on 8 shapes, has no "
        "single row as long as its total. Rank the per-operator totals of prof.key_averages() "
        "(no grouping) by self time"
    )


@pytest.fixture
def product_row_leads(monkeypatch):
    """Grouped by input shape, the product's row leads the exps' 8 rows, as on a quiet machine
    (on a busy one, a call of exp stalled for longer than the product makes its row lead)."""
    cls = torch.autograd.profiler.profile
    key_averages = cls.key_averages

    def quiet(self, *args, **kwargs):
        table = key_averages(self, *args, **kwargs)
        if len([e for e in table if e.key == "aten::exp"]) > 1:  # rows of the exps' shapes
            for e in table:
                e.self_cpu_time_total += 1e6 if e.key == "aten::mm" else 0
        return table

    monkeypatch.setattr(cls, "key_averages", quiet)


@pytest.mark.parametrize("mixed", [False, True])
def test_ranking_rows_per_input_shape_fails_where_an_operator_runs_on_many(
    product_row_leads, mixed
):
    # Right on the workloads of one shape each; on the 8 shapes of the exps, the product's
    # row leads. Printing the per-operator table first changes nothing: the rows ranked are
    # the ones per shape.
    answer, returned = by_shape(mixed)
    result = assert_fails("06.slowest_op", answer)
    assert result.hint == by_shape_hint(returned[-1]), result.hint
    assert result.passed == PASSED[:4], result.passed


def test_ranking_rows_per_input_shape_fails_when_a_stalled_row_of_the_right_operator_leads(
    monkeypatch,
):
    # A busy machine stalled one call of exp: its row leads, and the rule named the right
    # operator by chance. Only rows of one shape were ranked: it fails all the same.
    cls = torch.autograd.profiler.profile
    key_averages = cls.key_averages

    def exp_row_stalled(self, *args, **kwargs):
        table = key_averages(self, *args, **kwargs)
        rows = [e for e in table if e.key == "aten::exp"]
        if rows:
            rows[0].self_cpu_time_total += 1e6
        return table

    monkeypatch.setattr(cls, "key_averages", exp_row_stalled)
    answer, returned = by_shape()
    hint = assert_fails("06.slowest_op", answer).hint
    assert hint == by_shape_hint("aten::exp"), hint
    # asked again on a quiet machine's profile, its rows per shape put the product first
    assert returned[-2:] == ["aten::exp", "aten::mm"], returned


@pytest.fixture
def product_total_leads(monkeypatch):
    """The product's total time leads the 20 additions', as on a quiet machine (on a busy one,
    the additions' calls stalled for longer than the product took, and their total led too,
    so the hint rightly named that mistake first)."""
    cls = torch.autograd.profiler.profile
    key_averages = cls.key_averages

    def quiet(self, *args, **kwargs):
        table = key_averages(self, *args, **kwargs)
        for e in table:
            e.cpu_time_total += 1e6 if e.key == "aten::mm" else 0
        return table

    monkeypatch.setattr(cls, "key_averages", quiet)


def test_rows_per_input_shape_ranked_by_calls_get_the_hint_for_calls(product_total_leads):
    # Where the slowest operator runs on one shape, its row is its total: the rule's other
    # mistake (the most calls) is what the hint names.
    answer, returned = by_shape(column="count")
    hint = assert_fails("06.slowest_op", answer).hint
    assert returned[0] == "aten::add", returned
    assert hint.startswith(
        f"on cpu, for {PRODUCT}, you returned aten::add, which in your own profile has the most "
        "calls (count): it is the operator called most often"
    ), hint


def test_a_table_per_input_shape_printed_beside_the_ranked_totals_passes():
    # The rows per shape printed to look at, the operators' totals ranked: right.
    def prints_shapes(fn, args, device):
        from torch.profiler import ProfilerActivity, profile

        on_gpu = device.type == "cuda"
        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=acts, record_shapes=True) as prof:
            fn(*args)
        print(prof.key_averages(group_by_input_shape=True).table(row_limit=5))
        key = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        return max(prof.key_averages(), key=lambda e: getattr(e, key)).key

    assert assert_passes("06.slowest_op", prints_shapes).passed == PASSED


def test_slowest_op_names_an_operator_returned_without_its_namespace():
    def short_name(fn, args, device):
        return profiled_key("self_cpu_time_total")(fn, args, device).split("::")[-1]

    # the name the answer's own profile led with: aten::mm, or on a busy machine that stalled
    # the additions, aten::add (the checker names whichever it was)
    hint = assert_fails("06.slowest_op", short_name).hint
    assert re.fullmatch(
        r"on cpu, for a 512 x 512 product next to 20 tiny additions, you returned '(mm|add)', "
        r"the name of aten::\1 without its namespace: return the entry's \.key as it is, "
        r"aten:: included",
        hint,
    ), hint


def _profile_row(key, self_time, label=False):
    """A row of key_averages() with one call of ``self_time`` us; ``label``: a record_function's."""
    return SimpleNamespace(key=key, self_cpu_time_total=self_time, cpu_time_total=self_time,
                           count=1, cpu_time=self_time, self_cpu_memory_usage=0,
                           cpu_memory_usage=0, self_cpu_time_total_str=f"{self_time}us",
                           cpu_time_total_str=f"{self_time}us",
                           is_user_annotation=label)  # fmt: skip


def test_the_first_aten_operator_under_a_stalled_wrapper_is_the_rule_followed():
    # A busy machine stalled autograd's wrapper of the convolution's backward until it led the
    # profile; an answer that keeps only the aten:: operators (accepted) named the first of
    # those, aten::copy_: it followed the rule, as one that named the wrapper would have
    from d2lgpu.checks import ch06_performance
    from d2lgpu.checks._ch06_workloads import self_leaders, wrong_column

    row = _profile_row
    wrapper = "autograd::engine::evaluate_function: ConvolutionBackward0"
    table = [row(wrapper, 900.0), row("aten::copy_", 500.0), row("aten::mkldnn_convolution", 80.0),
             row("aten::convolution_backward", 70.0)]  # fmt: skip
    assert self_leaders(table) == {wrapper, "aten::copy_"}
    assert wrong_column("aten::copy_", table) is None
    assert ch06_performance._busy("aten::copy_", "aten::convolution_backward", [table])
    assert not ch06_performance._busy("aten::mkldnn_convolution", "aten::copy_", [table])
    # the wrapper leads all the entries, the operator wanted the aten:: ones: each ranking
    # is asked alone, so naming the wrapper is the rule followed too
    assert ch06_performance._busy(wrapper, "aten::copy_", [table])
    assert not ch06_performance._busy("aten::mkldnn_convolution", "aten::copy_", [table])
    # the table the answer read last decides: an earlier one (printed, say) was quiet
    quiet = [row("aten::copy_", 900.0), row(wrapper, 10.0)]
    assert ch06_performance._busy(wrapper, "aten::copy_", [quiet, table])
    assert not ch06_performance._busy(wrapper, "aten::copy_", [table, quiet])


def test_the_first_entry_but_the_answers_own_label_is_the_rule_followed():
    # A busy machine stalled AccumulateGrad until it led every entry but the label of the
    # answer's own record_function range, whose row led them all: an answer that left the
    # label out, as the hint on labels asks, followed the rule
    from d2lgpu.checks import ch06_performance
    from d2lgpu.checks._ch06_workloads import self_leaders, wrong_column

    row = _profile_row
    grad = "torch::autograd::AccumulateGrad"
    table = [row("slowest_op_call", 2000.0, label=True), row(grad, 900.0),
             row("aten::mkldnn_convolution", 500.0), row("aten::convolution_backward", 70.0),
             row("aten::add_", 60.0)]  # fmt: skip
    assert self_leaders(table) == {"slowest_op_call", grad, "aten::mkldnn_convolution"}
    assert wrong_column(grad, table) is None
    assert ch06_performance._busy(grad, "aten::convolution_backward", [table])
    # an entry that leads no ranking is no stall followed
    assert not ch06_performance._busy("aten::convolution_backward", grad, [table])
    assert "the smallest self time" in wrong_column("aten::add_", table)
    # a table without labels ranks as before: the label's row is the only one left out
    quiet = [row(grad, 900.0), row("aten::mkldnn_convolution", 500.0), row("aten::add_", 1.0)]
    assert self_leaders(quiet) == {grad, "aten::mkldnn_convolution"}


def test_the_operator_an_answer_ranked_by_another_order_is_named_by_each_order_it_leads():
    # On a busy machine the operator with the least self time can also be the one called most
    # often, or the one whose name sorts last: the hint names min() first and lists the rest.
    from types import SimpleNamespace

    from d2lgpu.checks._ch06_workloads import text_led, wrong_column

    def row(key, self_time, count, text=None):
        return SimpleNamespace(
            key=key,
            self_cpu_time_total=self_time,
            cpu_time_total=self_time,
            count=count,
            cpu_time=self_time / count,
            self_cpu_memory_usage=0,
            cpu_memory_usage=0,
            self_cpu_time_total_str=text or f"{self_time:.3f}us",
            cpu_time_total_str=text or f"{self_time:.3f}us",
        )

    table = [row("aten::mm", 900.0, 1), row("aten::pow", 50.0, 20), row("aten::to", 3.0, 40)]
    hint = wrong_column("aten::to", table)
    assert hint.index("smallest self time") < hint.index("most calls"), hint
    assert "min()" in hint and "the name last in alphabetical order" in hint
    assert wrong_column("aten::mm", table) is None
    # the second by self time, neither first nor last by name, nor first as text
    assert wrong_column("aten::pow", table) == (
        "you returned aten::pow, which in your own profile has the second-largest self time. "
        "The work is done where the self time is: sort by self time (self_cpu_time_total) and "
        "take the first entry"
    )
    assert hint == (
        "you returned aten::to, which in your own profile has the smallest self time: min() or "
        "an ascending sort finds the fastest; the most calls (count): it is the operator called "
        "most often; the name last in alphabetical order (a key of e.key compares names). The "
        "work is done where the self time is: sort by self time (self_cpu_time_total) and take "
        "the first entry"
    )
    # the third of four by self time leads nothing; a column of equal counts leads nowhere
    four = [row("aten::mm", 900.0, 2), row("aten::pow", 50.0, 2), row("aten::sin", 20.0, 2)]
    assert wrong_column("aten::sin", four + [row("aten::to", 3.0, 2)]) is None
    # first by name, and the most calls of two counts
    named = [row("aten::mm", 900.0, 1), row("aten::abs", 50.0, 5), row("aten::to", 3.0, 1)]
    assert wrong_column("aten::abs", named) == (
        "you returned aten::abs, which in your own profile has the most calls (count): it is "
        "the operator called most often; the second-largest self time; the name first in "
        "alphabetical order (a key of e.key compares names). The work is done where the self "
        "time is: sort by self time (self_cpu_time_total) and take the first entry"
    )
    # times compared as text: "9.000us" sorts above "12.000ms"
    texts = [row("aten::mm", 12000.0, 1, "12.000ms"), row("aten::pow", 9.0, 1, "9.000us")]
    texts.append(row("aten::sum", 5.0, 2, "5.000us"))
    assert wrong_column("aten::pow", texts).startswith(
        "you returned aten::pow, which in your own profile has the second-largest self time; "
        "the largest time compared as text (self_cpu_time_total_str: '9.0us' sorts above "
        "'12ms')"
    )
    assert text_led("aten::mm", texts) is None
    for r in texts:  # the self times alike as text: the total times' text is read
        r.self_cpu_time_total_str = "1.000us"
    assert text_led("aten::pow", texts) == (
        "the largest time compared as text (cpu_time_total_str: '9.0us' sorts above '12ms')"
    )
    assert text_led("aten::pow", texts[:1] + texts[1:2] * 2) is not None  # two rows: still told
    assert text_led("aten::pow", [row("aten::pow", 9.0, 1), row("aten::mm", 9.0, 2)]) is None


def test_an_answer_that_compared_times_as_text_and_got_matmul_is_told_both_causes():
    from types import SimpleNamespace

    from d2lgpu.checks._ch06_reads import name_check as _name_check
    from d2lgpu.checks._util import CheckFailed

    def row(key, self_time, text):
        return SimpleNamespace(key=key, self_cpu_time_total=self_time, self_cpu_time_total_str=text)

    table = [row("aten::mm", 1200.0, "1.200ms"), row("aten::matmul", 9.1, "9.100us")]
    table.append(row("aten::add", 3.0, "3.000us"))
    cpu = torch.device("cpu")
    with pytest.raises(CheckFailed) as raised:
        _name_check("aten::matmul", "aten::mm", "a product", cpu, {}, [], table)
    assert raised.value.hint.endswith(
        "sort by self_cpu_time_total instead; it also has the largest time compared as text "
        "(self_cpu_time_total_str: '9.0us' sorts above '12ms'): compare the numbers"
    ), raised.value.hint
    table[1] = row("aten::matmul", 9.1, "0.910us")  # not first as text: not said
    with pytest.raises(CheckFailed) as raised:
        _name_check("aten::matmul", "aten::mm", "a product", cpu, {}, [], table)
    assert raised.value.hint.endswith("sort by self_cpu_time_total instead"), raised.value.hint


def test_the_workloads_hints_and_the_largest_of_a_column():
    from types import SimpleNamespace

    from d2lgpu.checks._ch06_reads import name_check as _name_check
    from d2lgpu.checks._ch06_workloads import largest, workloads
    from d2lgpu.checks._util import CheckFailed

    _, args, want, what, misses = workloads()[2]
    assert (want, [a.shape for a in args]) == ("aten::_softmax", [(2_000_000,)])
    with pytest.raises(CheckFailed) as raised:
        _name_check("aten::softmax", want, what, torch.device("cpu"), misses, [], None)
    assert raised.value.hint == (
        "on cpu: you returned aten::softmax, which calls aten::_softmax, the operator that does "
        "the work: keep the entries whose names start with aten::_ (only the profiler's own "
        "entries and runtime calls need leaving out)"
    )
    rows = [SimpleNamespace(key=k, t=t) for k, t in (("a", 0.5), ("b", 0.2), ("c", 0.5))]
    assert largest(rows, "t") == {"a", "c"}  # times below 1 us count; ties are all kept
    assert largest([SimpleNamespace(key="a", t=0.0)], "t") == set()  # a column of zeros


def test_the_workloads_are_the_same_at_every_call_and_are_what_their_words_say():
    from types import SimpleNamespace

    from d2lgpu.checks._ch06_workloads import (
        largest,
        many_calls_workload,
        summed_by_name,
        workloads,
    )

    first, again = workloads(), workloads()  # drawn from a seeded generator: the same cases
    for (_, args, *_), (_, args_again, *_) in zip(first, again, strict=True):
        assert all(torch.equal(a, b) for a, b in zip(args, args_again, strict=True))
    many, many_again = many_calls_workload(), many_calls_workload()
    assert torch.equal(many[1][0], many_again[1][0])
    assert all(torch.equal(a, b) for a, b in zip(many[1][1], many_again[1][1], strict=True))
    assert [[tuple(a.shape) for a in w[1]] for w in first] == [
        [(512, 512), (8,)],
        [(2_000_000,), (32, 32)],  # "a 32 x 32 product"
        [(2_000_000,)],
    ]
    fn, args, *_ = first[0]
    with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
        fn(*args)
    adds = [e.count for e in prof.key_averages() if e.key == "aten::add"]
    assert adds == [20]  # "next to 20 tiny additions"
    assert many[4] == {
        "aten::mm": "you returned aten::mm, the operator whose single call is the longest; "
        "aten::exp, called 80 times, takes more time in all. Rank by the total self time over "
        "all calls (self_cpu_time_total), not by the time per call"
    }
    assert largest([], "t") == set()

    class Events(list):  # what prof.events() is: calls, and their sums per operator
        def key_averages(self):
            return "rows"

    def call(key, cpu, device):
        return SimpleNamespace(key=key, self_cpu_time_total=cpu, self_device_time_total=device)

    # on a GPU the device column decides which single call is the longest
    assert summed_by_name(Events([call("a", 1, 5), call("b", 9, 1)])) == ("rows", "a")
    assert summed_by_name(Events([call("a", 1, 0), call("b", 9, 0)])) == ("rows", "b")
    assert summed_by_name(Events([call("[memory]", 0, 0)])) == ("rows", None)


# Round 21: mistakes a GPU shows, seen on a scripted one; cases the first workloads were too
# kind to show (a training step's backward, an operator called from several places).


def profiled_with(*, before=None, inside=None, warm_up=None, filtered=None, **options):
    """A right slowest_op but for one change: ``before(device)`` in place of the sync after
    the warm-up, ``inside()`` run in the profile block before fn, ``warm_up(fn, args)`` in
    place of fn(*args), ``filtered(rows)`` the rows ranked, ``options`` for the profile."""
    from torch.profiler import ProfilerActivity, profile

    def answer(fn, args, device):
        on_gpu = device.type == "cuda"
        (warm_up or (lambda fn, args: fn(*args)))(fn, args)
        if on_gpu:
            (before or d2lgpu.sync)(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=acts, **options) as prof:
            if inside is not None:
                inside()
            fn(*args)
        key = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        rows = (filtered or list)(prof.key_averages())
        return max(rows, key=lambda e: getattr(e, key)).key

    return answer


def test_a_label_of_the_answers_own_is_named_where_it_leads_a_gpu():
    # On a GPU a record_function range is also a device row spanning every kernel in it.
    from torch.profiler import ProfilerActivity, profile, record_function

    def labelled(skip):
        def answer(fn, args, device):
            on_gpu = device.type == "cuda"
            fn(*args)
            d2lgpu.sync(device)
            acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
            with profile(activities=acts) as prof, record_function("slowest_op_call"):
                fn(*args)
            key = "self_device_time_total" if on_gpu else "self_cpu_time_total"
            rows = [e for e in prof.key_averages() if not (skip and e.is_user_annotation)]
            return max(rows, key=lambda e: getattr(e, key)).key

        return answer

    result = assert_fails(
        "06.slowest_op",
        labelled(skip=False),
        "you returned 'slowest_op_call', the label of your own record_function range",
        "is_user_annotation",
    )
    # the GPU's label row leads, after every CPU check; on a busy CPU the range's own self
    # time can lead the CPU's profile at any workload first, where the same hint comes then:
    # the lines passed are the checks before it, in the checker's order
    assert 1 <= len(result.passed) <= 9, result.passed
    assert result.passed == PASSED[: len(result.passed)], result.passed
    assert_passes("06.slowest_op", labelled(skip=True))  # the labels' rows left out: right

    def the_label(fn, args, device):  # on the CPU too, a label returned is named
        answer = labelled(skip=False)
        answer(fn, args, device)
        return "slowest_op_call"

    hint = assert_fails("06.slowest_op", the_label).hint
    assert hint == (
        f"on cpu, for {PRODUCT}, you returned 'slowest_op_call', the label of your own "
        "record_function range, not an operator of fn: a label is an entry of key_averages() "
        "of its own, and on a GPU its row holds the device time of every kernel run inside "
        "it, more than any operator's. Leave the label out (or skip the entries whose "
        "is_user_annotation is True) and return an operator's .key"
    ), hint


def test_a_sync_of_the_current_gpu_not_device_is_named_and_one_of_device_passes():
    # On cuda:1 of two (scripted) GPUs, a wait that names no GPU is cuda:0's: the prompt says
    # to synchronize device, whose warm-up would otherwise run into the profile.
    for wait in (
        lambda device: torch.cuda.synchronize(),
        lambda device: torch.accelerator.synchronize(),
        lambda device: torch.cuda.current_stream().synchronize(),
    ):
        assert assert_fails("06.slowest_op", profiled_with(before=wait)).hint == (
            "on cuda:1, the host waited after the warm-up for cuda:0, not for cuda:1, the GPU "
            "fn runs on: a wait that names no GPU (torch.cuda.synchronize(), "
            "torch.cuda.current_stream().synchronize()) is the current GPU's, so the warm-up's "
            "kernels on device run into the profile. Synchronize device itself: "
            "d2lgpu.sync(device) or torch.cuda.synchronize(device)"
        )
    for wait in (
        lambda device: torch.cuda.synchronize(device),
        lambda device: torch.cuda.current_stream(device).synchronize(),
        lambda device: torch.accelerator.synchronize(device),
    ):
        assert_passes("06.slowest_op", profiled_with(before=wait))

    def current_set(device):  # the current GPU made device's first
        with torch.cuda.device(device):
            torch.cuda.synchronize()

    assert_passes("06.slowest_op", profiled_with(before=current_set))


def test_an_answer_kept_for_the_same_fn_is_named_when_its_args_change():
    from torch.profiler import ProfilerActivity, profile

    seen = {}

    def by_fn(fn, args, device):  # round 51's w07: "profiling is slow"
        if fn not in seen:
            fn(*args)
            with profile(activities=[ProfilerActivity.CPU]) as prof:
                fn(*args)
            seen[fn] = max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key
        return seen[fn]

    result = assert_fails("06.slowest_op", by_fn)
    assert result.hint == (
        "on cpu, one fn called with two sets of args: for exp of 2 million numbers next to an "
        "8 x 8 product you returned 'aten::mm', what you returned for the same fn on a 512 x "
        "512 product next to exp of 1,000 numbers; here aten::exp takes the time. The slowest "
        "operator depends on args too: a cache keyed on fn (or fn and device) keeps an "
        "earlier call's answer. Profile every call"
    ), result.hint
    assert result.passed == PASSED[:7]


def test_a_warm_up_skipped_for_an_fn_seen_before_is_named():
    from torch.profiler import ProfilerActivity, profile

    warmed = []  # the functions themselves, kept: no id of a freed one comes back

    def warm_once(fn, args, device):  # round 55's w06: "a warm-up is a one-time cost"
        if not any(fn is f for f in warmed):
            fn(*args)
            warmed.append(fn)
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            fn(*args)
        return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key

    result = assert_fails("06.slowest_op", warm_once)
    assert result.hint == (
        "on cpu, one fn called with two sets of args: for exp of 2 million numbers next to an "
        "8 x 8 product, the second, the first call of fn was already profiled: a warm-up "
        "skipped for an fn seen before. Other args (other shapes) bring their one-off costs "
        "again, and the caller may have changed anything since. Warm up in every call of "
        "slowest_op"
    ), result.hint
    assert result.passed == PASSED[:7]


def test_the_operator_wanted_passes_whatever_leads_its_own_table(monkeypatch):
    # On the H200 of 2026-12-04 a right answer that left its record_function label out of the
    # ranking failed: the label's device row led its own table, so aten::mm was not "tied"
    # with the leader, and the hint said it led CPU time plus device time.
    import d2lgpu.checks.ch06_performance as performance

    monkeypatch.setattr(performance, "_tied", lambda got, want, tables: False)
    monkeypatch.setattr(performance, "gpu_column_hint", lambda *args: "CPU time plus device")
    assert_passes("06.slowest_op", profiled_key("self_cpu_time_total"))


def test_cpu_time_added_to_device_time_on_a_gpu_is_named():
    def added(prof, key):  # the operators only: a real GPU's profile has the profiler's own
        rows = [e for e in prof.key_averages() if e.key.startswith("aten::")]
        if key == "self_cpu_time_total":  # every entry: a custom operator leads one workload
            return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key
        return max(rows, key=lambda e: e.self_cpu_time_total + e.self_device_time_total).key

    hint = assert_fails("06.slowest_op", warmed_profile(added)).hint
    assert hint == (
        "on cuda, for a 1024 x 1024 product next to 20 tiny additions, on cuda:1 of two GPUs, "
        "you returned 'aten::add', which leads self CPU time plus self device time: on a GPU the "
        "CPU's time is the launching of kernels, not the operator's work, and adding it lets an "
        "operator launched often but cheap on the device win. Rank by self_device_time_total "
        "alone"
    ), hint


def test_the_cpu_column_on_the_launch_bound_gpu_profile_is_named():
    from d2lgpu.checks._ch06_calls import gpu_column_hint
    from d2lgpu.checks._gpu_profile import SCRIPTED_LAUNCH_ROWS, _scripted_events

    table = _scripted_events(True, rows=SCRIPTED_LAUNCH_ROWS)
    hint = gpu_column_hint("aten::add", table, "w", set())
    assert hint == (
        "on cuda, for w, you returned 'aten::add', which leads self CPU time "
        "(self_cpu_time_total): on a GPU the CPU columns only measure launching work. Rank by "
        "self_device_time_total when device is a GPU"
    ), hint
    assert gpu_column_hint("aten::mm", table, "w", set()) is None  # the device's leader
    assert gpu_column_hint("cudaLaunchKernel", table, "w", set()) is None  # a hint of its own


def test_the_sum_of_the_cpu_and_device_columns_is_told_from_the_cpu_column_alone():
    from types import SimpleNamespace

    from d2lgpu.checks._ch06_calls import gpu_column_hint

    def row(key, cpu, device):
        return SimpleNamespace(key=key, self_cpu_time_total=cpu, self_device_time_total=device)

    # X leads CPU plus device (110), Y the device (100), and Z CPU minus device (40 > -10)
    table = [row("aten::x", 50, 60), row("aten::y", 0, 100), row("aten::z", 40, 0)]
    read = {"self_device_time_total"}
    assert gpu_column_hint("aten::x", table, "w", read).startswith(
        "on cuda, for w, you returned 'aten::x', which leads self CPU time plus self device time"
    )
    # without a device column read, the same return is named as the CPU column's leader
    assert "which leads self CPU time (self_cpu_time_total)" in gpu_column_hint(
        "aten::x", table, "w", set()
    )
    assert gpu_column_hint("aten::z", table, "w", read) is None  # leads neither


def test_the_operators_of_fn_are_those_of_both_profiled_calls():
    from d2lgpu.checks._ch06_calls import _operators

    calls = []

    def fn(x):  # its first call runs an addition, its second a multiplication
        calls.append(1)
        return x + 1 if len(calls) == 1 else x * 2

    ops = _operators(fn, (torch.ones(3),))
    assert {"aten::add", "aten::mul"} <= ops and len(calls) == 2, ops


_BY_STACK = """
import json, sys
sys.path.insert(0, "tests")
from test_checks_ch06 import _by_stack
from d2lgpu.grading import check
results = [check("06.slowest_op", _by_stack(with_stack=w), quiet=True) for w in (True, False)]
print(json.dumps([[r.status, r.hint or "", list(r.passed)] for r in results]))
"""


def test_rows_grouped_by_call_stack_fail_where_an_operator_is_called_from_several_places():
    # Newer torch records no stack per operator (its rows do not split): the call is named.
    # In a fresh Python: a with_stack=True profile in a process that ran many tests before
    # it (the suite's long-lived workers) was seen to spin for over 20 minutes.
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run(
        [sys.executable, "-c", _BY_STACK], cwd=root, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr[-3000:]
    (status, hint, passed), (status_flat, hint_flat, _) = json.loads(run.stdout.splitlines()[-1])
    assert status == "failed", hint
    for part in (
        "from prof.key_averages(group_by_stack_n=5)",
        "one row per place it is called from",
        "split here into 4 rows",
    ):
        assert part in hint, hint
    assert passed == PASSED[:4], passed
    assert status_flat == "passed", hint_flat  # no stacks: one row each


def _by_stack(with_stack=True):
    from torch.profiler import ProfilerActivity, profile

    def answer(fn, args, device):
        on_gpu = device.type == "cuda"
        fn(*args)
        d2lgpu.sync(device)
        acts = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if on_gpu else [])
        with profile(activities=acts, with_stack=with_stack) as prof:
            fn(*args)
        key = "self_device_time_total" if on_gpu else "self_cpu_time_total"
        return max(prof.key_averages(group_by_stack_n=5), key=lambda e: getattr(e, key)).key

    return answer


def test_copies_of_the_arguments_and_other_work_in_the_profile_are_named():
    def clones(fn, args):
        return [a.clone() if isinstance(a, torch.Tensor) else a for a in args]

    def cloning(fn, args, device):
        fn(*clones(fn, args))
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            fn(*clones(fn, args))
        return max(prof.key_averages(), key=lambda e: e.self_cpu_time_total).key

    assert_fails(
        "06.slowest_op", cloning, "fn was called with copies of its arguments", "aten::clone"
    )
    hint = assert_fails("06.slowest_op", profiled_with(inside=lambda: torch.zeros(1000))).hint
    assert hint.startswith(f"on cpu, for {PRODUCT}, your profile lists aten::"), hint
    listed = hint.removeprefix(f"on cpu, for {PRODUCT}, your profile lists ").split(", which")[0]
    assert "aten::zeros" in listed.split(", ") and len(listed.split(", ")) >= 2, listed
    assert hint.endswith(
        ", which fn(*args) never runs: work of your own inside the torch.profiler.profile block "
        "(a copy or clone of the arguments, say) is profiled with fn's and can lead the table, "
        "and so are the events of an earlier call that a profiler kept between calls (a global "
        "profiler, acc_events=True) still holds. Do that work before the block, and make a new "
        "profiler in each call: profile only the call fn(*args)"
    ), hint


@pytest.mark.parametrize("mode", [torch.no_grad, torch.inference_mode])
def test_a_warm_up_with_gradients_switched_off_is_named(mode):
    def warm_up(fn, args):
        with mode():
            fn(*args)

    assert_fails(
        "06.slowest_op",
        profiled_with(warm_up=warm_up),
        "fn ran with gradients switched off (torch.no_grad() or torch.inference_mode())",
        "a training step's backward raises there",
    )


def test_leaving_out_the_backwards_rows_is_named_on_a_training_step():
    def no_backward(rows):
        return [e for e in rows if "backward" not in e.key.lower()]

    result = assert_fails(
        "06.slowest_op",
        profiled_with(filtered=no_backward),
        f"on cpu, for {CONV}, you returned aten::",
        "which leads only once the backward's rows are left out",
        "aten::convolution_backward",
    )
    assert result.passed == PASSED[:5], result.passed


def test_a_name_without_its_namespace_is_named_whichever_operator_led_the_answers_profile():
    """On a busy machine the answer's own profile may be led by another operator (a stalled
    copy): a name stripped of its namespace is still that mistake, not a wrong operator."""
    from types import SimpleNamespace

    from d2lgpu.checks._ch06_reads import name_check
    from d2lgpu.checks._util import CheckFailed

    table = [SimpleNamespace(key="aten::copy_"), SimpleNamespace(key="aten::mm")]
    with pytest.raises(CheckFailed) as raised:
        name_check("copy_", "aten::mm", "a product", torch.device("cpu"), {}, [], table)
    assert raised.value.hint == (
        "on cpu, for a product, you returned 'copy_', the name of aten::copy_ without its "
        "namespace: return the entry's .key as it is, aten:: included"
    )
    with pytest.raises(CheckFailed) as raised:
        name_check("mm", "aten::mm", "a product", torch.device("cpu"), {}, [], None)
    assert "the name of aten::mm without its namespace" in raised.value.hint
    with pytest.raises(CheckFailed) as raised:  # no operator of that name: the generic hint
        name_check("copy", "aten::mm", "a product", torch.device("cpu"), {}, [], None)
    assert "without its namespace" not in raised.value.hint


def test_the_backward_skipped_hint_needs_the_backward_to_lead_the_answers_profile():
    # a busy machine that stalled aten::add_ past the backward: the answer followed the rule
    from types import SimpleNamespace

    from d2lgpu.checks._ch06_workloads import backward_skipped

    def table(**times):
        return [SimpleNamespace(key=k.replace("__", "::"), self_cpu_time_total=t)
                for k, t in times.items()]  # fmt: skip

    quiet = table(aten__convolution_backward=9.0, aten__add_=5.0, aten__convolution=3.0)
    assert backward_skipped("aten::add_", quiet).startswith(
        "you returned aten::add_, which leads only once the backward's rows are left out"
    )
    busy = table(aten__convolution_backward=9.0, aten__add_=12.0, aten__convolution=3.0)
    assert backward_skipped("aten::add_", busy) is None
    assert backward_skipped("aten::convolution", quiet) is None  # leads neither


def _rows(*pairs, count=1):
    """A key_averages()-like table: (key, self CPU time) pairs."""
    from types import SimpleNamespace

    return [SimpleNamespace(key=k, self_cpu_time_total=t, self_device_time_total=0.0, count=count)
            for k, t in pairs]  # fmt: skip


class _Events(list):
    """A prof.events()-like list of calls, whose key_averages() is given."""

    def __init__(self, calls, rows):
        super().__init__(calls)
        self.rows = rows

    def key_averages(self):
        return self.rows


def test_summed_rows_is_told_from_the_answer_table_without_the_profilers_own_entries():
    # _summed_rows: an answer that read grouped tables named want, though none of want's rows
    # led its table (it summed them). The profiler's own entries are never a row to lead.
    from d2lgpu.checks.ch06_performance import _summed_rows

    exp = "aten::exp"
    split = _rows(("aten::exp", 30.0), ("aten::exp", 30.0), ("aten::mm", 50.0))
    assert _summed_rows(exp, exp, [split])  # each row of exp is below mm's: it summed them
    assert not _summed_rows("aten::mm", exp, [split])  # named another operator
    assert not _summed_rows(exp, exp, [])  # no table read
    assert not _summed_rows(exp, exp, [[]])  # a table with no rows
    assert not _summed_rows(exp, exp, [_rows(("[memory]", 5.0))])  # only the profiler's own
    # a row of exp leads the operators (the profiler's [memory] larger still): no sum needed
    assert not _summed_rows(
        exp, exp, [_rows(("[memory]", 1000.0), (exp, 60.0), ("aten::mm", 50.0))]
    )
    assert not _summed_rows(exp, exp, [_rows(("aten::mm", 0.0))])  # no time at all
    assert _summed_rows(exp, exp, [_rows((exp, 0.5), ("aten::mm", 1.0))])  # a 1 us leader counts
    # the last table the answer read decides
    assert not _summed_rows(exp, exp, [split, _rows((exp, 60.0), ("aten::mm", 50.0))])


def test_sums_lead_adds_each_operators_rows_of_the_last_table():
    from d2lgpu.checks.ch06_performance import _sums_lead

    split = _rows(("aten::exp", 30.0), ("aten::exp", 30.0), ("aten::mm", 50.0), ("[memory]", 99.0))
    assert _sums_lead("aten::exp", [split])  # 60 against 50; the profiler's own left out
    assert not _sums_lead("aten::mm", [split])
    assert not _sums_lead("[memory]", [split])
    assert not _sums_lead("aten::exp", [])
    assert not _sums_lead("aten::exp", [[]])
    assert not _sums_lead("aten::exp", [split, _rows(("aten::exp", 30.0), ("aten::mm", 50.0))])


def test_busy_reads_the_calls_an_answer_read_where_it_read_no_table():
    # No table read, only prof.events(): their sums per operator (key_averages()) rank.
    from d2lgpu.checks.ch06_performance import _busy

    calls = _rows(("aten::mm", 50.0), ("aten::exp", 10.0), ("aten::exp", 10.0))
    read = [_Events(calls, _rows(("aten::mm", 50.0), ("aten::exp", 20.0)))]
    assert _busy("aten::mm", "aten::exp", [], read)  # mm led the calls it read: a stall
    assert not _busy("aten::exp", "aten::mm", [], read)
    assert not _busy("aten::mm", "aten::exp", [], ())  # nothing read: nothing to tell
    # where it read a table, the table decides, not the calls
    quiet = _rows(("aten::exp", 90.0), ("aten::mm", 50.0))
    assert not _busy("aten::mm", "aten::exp", [quiet], read)


def test_calls_agree_where_the_longest_call_is_one_of_an_operator_called_twice_or_more():
    from d2lgpu.checks.ch06_performance import _calls_agree

    calls = _rows(("aten::exp", 40.0), ("aten::exp", 5.0), ("aten::mm", 30.0))
    twice = _Events(calls, _rows(("aten::exp", 45.0), ("aten::mm", 30.0), count=2))
    assert _calls_agree(twice, "aten::exp")
    assert not _calls_agree(twice, "aten::mm")  # the longest call is exp's
    once = _Events(calls[:1] + calls[2:], _rows(("aten::exp", 40.0), ("aten::mm", 30.0)))
    assert not _calls_agree(once, "aten::exp")  # called once: ranking calls is ranking rows


def test_quiet_rows_split_the_many_called_operator_over_its_shapes_and_sites():
    from d2lgpu.checks._ch06_workloads import MANY_SHAPES, MANY_SITES
    from d2lgpu.checks._gpu_profile import SCRIPTED_CPU_ROWS
    from d2lgpu.checks.ch06_performance import _quiet_rows

    def exp_rows(rows):
        return [r for r in rows if r[0] == "aten::exp"]

    ((_, calls, *times),) = [r for r in SCRIPTED_CPU_ROWS if r[0] == "aten::exp"]
    assert _quiet_rows() == [tuple(r) for r in SCRIPTED_CPU_ROWS]  # not grouped: as scripted
    for args, parts in (((True,), MANY_SHAPES), ((False, 5), MANY_SITES),
                        ((True, 5), MANY_SHAPES * MANY_SITES)):  # fmt: skip
        rows = _quiet_rows(*args)
        assert (
            exp_rows(rows) == [("aten::exp", calls // parts, *(t / parts for t in times))] * parts
        )
        assert [r for r in rows if r[0] != "aten::exp"] == [
            tuple(r) for r in SCRIPTED_CPU_ROWS if r[0] != "aten::exp"
        ]  # called once: never split


def _ranked(only_aten: bool = False, table_text: bool = False):
    """A slowest_op that keeps only the aten:: entries, or reads the name off the table."""
    from torch.profiler import ProfilerActivity, profile

    def slowest_op(fn, args, device):
        fn(*args)
        with profile(activities=[ProfilerActivity.CPU]) as prof:
            fn(*args)
        rows = [e for e in prof.key_averages() if e.key.startswith("aten::") or not only_aten]
        if table_text:
            table = prof.key_averages().table(sort_by="self_cpu_time_total", row_limit=1)
            return re.split(r"\s{2,}", table.splitlines()[3].strip())[0]
        return max(rows, key=lambda e: e.self_cpu_time_total).key

    return slowest_op


def test_a_custom_operator_with_a_long_name_leads_a_workload_of_its_own():
    from d2lgpu.checks._ch06_custom_op import CUSTOM_OP, custom_op_workload, other_namespace

    fn, args, want, what, misses = custom_op_workload()
    assert want == CUSTOM_OP and len(CUSTOM_OP) > 55 and CUSTOM_OP in what
    norms, total = fn(*args)
    assert torch.allclose(norms, args[0].norm(dim=1)) and torch.allclose(total, args[0].sum())
    assert custom_op_workload()[2] == want  # registered once per process, asked again
    assert other_namespace(CUSTOM_OP) and other_namespace("c10d::allreduce_.default")
    assert not any(map(other_namespace, ("aten::mm", "autograd::engine::evaluate_function: X")))
    assert misses("aten::mm", None) is None  # no table read: no aten:: leader to name
    result = assert_fails(
        "06.slowest_op", _ranked(only_aten=True), f"the entry with the most self time is {want}",
        "rank every entry of key_averages(), whatever its name, not only the aten:: ones",
    )  # fmt: skip
    assert result.hint.startswith("on cpu: you returned aten::")
    assert_fails(
        "06.slowest_op", _ranked(table_text=True), f"the first 52 characters of {want}",
        "key_averages().table() cuts any name longer than 55 characters", "Return the entry's .key",
    )  # fmt: skip


def test_the_aten_only_ranking_is_accepted_unless_an_operator_of_another_namespace_leads():
    from d2lgpu.checks._ch06_workloads import self_rankings

    def row(key, self_time):
        return SimpleNamespace(key=key, self_cpu_time_total=self_time, is_user_annotation=False)

    stalled = [row("autograd::engine::evaluate_function: MmBackward0", 9.0), row("aten::mm", 5.0)]
    assert {"aten::mm"} in self_rankings(stalled)
    custom = [row("d2lgpu_checks::slow", 9.0), row("aten::mm", 5.0)]
    assert self_rankings(custom) == [{"d2lgpu_checks::slow"}, {"d2lgpu_checks::slow"}]
