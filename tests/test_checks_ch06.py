"""The checker of 06.slowest_op: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import pytest
import torch
from grading_helpers import assert_fails, assert_passes

import d2lgpu


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


def test_slowest_op_reference_passes():
    assert len(assert_passes("06.slowest_op", profiled_key("self_cpu_time_total")).passed) == 6


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
            torch.cuda.synchronize()
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
    result = assert_fails(
        "06.slowest_op",
        profiled_key("self_cpu_time_total", gpu_aware=False),
        "recorded no device times",
        "ProfilerActivity.CUDA",
    )
    assert len(result.passed) == 5  # the CPU workloads pass: only a GPU run can tell


def test_slowest_op_rejects_a_warm_up_without_sync_on_a_gpu():
    assert_fails(
        "06.slowest_op", profiled_key("self_cpu_time_total", sync=False), "synchronize after it"
    )


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
    assert_fails(
        "06.slowest_op",
        profiled_key("self_cpu_time_total", gpu_key="device_time_total"),
        "on cuda",
        "aten::matmul",
    )


def test_slowest_op_rejects_sorting_by_total_time():
    assert_fails(
        "06.slowest_op", profiled_key("cpu_time_total"), "aten::matmul", "sort by self time"
    )


def test_slowest_op_rejects_sorting_by_calls():
    assert_fails("06.slowest_op", profiled_key("count"), "called most often")


def test_slowest_op_rejects_a_profile_without_warm_up_and_a_hard_coded_name():
    assert_fails(
        "06.slowest_op",
        profiled_key("self_cpu_time_total", warm_up=False),
        "call fn(*args) once before",
    )
    assert_fails("06.slowest_op", lambda fn, args, device: "aten::mm", "never while the profiler")


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


def from_events(cpu_key):
    """Reads prof.events(), one entry per call, instead of key_averages()."""

    def pick(prof, key):
        key = key if key.startswith("self_device") else cpu_key
        return max(prof.events(), key=lambda e: getattr(e, key)).name

    return warmed_profile(pick)


def test_slowest_op_names_events_read_instead_of_key_averages():
    # the longest single call: right until an operator's many calls add up to more
    hint = assert_fails(
        "06.slowest_op", from_events("self_cpu_time_total"), "prof.events()", "key_averages()"
    ).hint
    assert "80 exps" in hint, hint
    # the longest single call by total time: aten::matmul, whose total includes aten::mm
    assert_fails("06.slowest_op", from_events("cpu_time_total"), "*total* time includes aten::mm")


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


def test_more_than_one_profiled_call_is_named():
    def profiles_three(prof, key):
        return max(prof.key_averages(), key=lambda e: getattr(e, key)).key

    hint = assert_fails("06.slowest_op", warmed_profile(profiles_three, calls=3)).hint
    assert hint.startswith("fn ran 3 times while the profiler was recording"), hint


def test_slowest_op_other_ways_of_waiting_for_the_gpu_pass():
    def waits(sync):
        return warmed_profile(
            lambda prof, key: max(prof.key_averages(), key=lambda e: getattr(e, key)).key, sync
        )

    def with_an_event(device):
        done = torch.cuda.Event()
        done.record()
        done.synchronize()

    assert_passes("06.slowest_op", waits(lambda device: torch.accelerator.synchronize()))
    assert_passes("06.slowest_op", waits(lambda device: torch.cuda.current_stream().synchronize()))
    assert_passes("06.slowest_op", waits(with_an_event))


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
    assert state["log"] == [("sync", False)]


@pytest.mark.parametrize(
    "name, says",
    [
        ("Activity Buffer Request", "ask for ProfilerActivity.CUDA only when device is a GPU"),
        ("ProfilerStep#3", "skip the entries that are not operators"),
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

    hint = assert_fails("06.slowest_op", profiler_entry, "the profiler's own work", says).hint
    assert "on cpu, for a 512 x 512 product" in hint, hint


def test_a_device_column_on_the_cpu_or_the_first_entry_is_told_how_to_sort():
    # Red-team answers: self_device_time_total on the CPU (all zeros there) and the first,
    # unsorted entry both return aten::matmul; the hint says what to sort by on the CPU.
    def first_entry(fn, args, device):
        fn(*args)
        with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU]) as prof:
            fn(*args)
        return prof.key_averages()[0].key

    for answer in (profiled_key("self_device_time_total"), first_entry):
        hint = assert_fails("06.slowest_op", answer, "aten::matmul").hint
        assert "sorted by a device column (all zeros on the CPU)" in hint, hint
        assert "sort by self_cpu_time_total instead" in hint, hint


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
    one of them shows it."""

    def stall(times):
        cls = torch.autograd.profiler.profile
        key_averages, left = cls.key_averages, [times]

        def stalled_key_averages(self, *args, **kwargs):
            table = key_averages(self, *args, **kwargs)
            entries = [e for e in table if e.key == "aten::_to_copy"]
            if entries and left[0] > 0:
                left[0] -= 1
                entries[0].self_cpu_time_total += 1e6  # microseconds
            return table

        monkeypatch.setattr(cls, "key_averages", stalled_key_averages)

    return stall


@pytest.mark.parametrize("times", [1, 3, 100])
def test_a_profile_led_by_a_stalled_operator_is_run_again_and_a_right_answer_passes(stalled, times):
    # 100: the machine stays busy; the answer named its own profile's largest entry each time
    stalled(times)
    assert_passes("06.slowest_op", profiled_key("self_cpu_time_total"))


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


def test_an_aten_only_filter_passes():
    # Decided: the operators of fn are aten ops in a profile; the filter leaves out kernels,
    # CUDA runtime calls and the profiler's own entries, and changes no workload's answer.
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

    assert_passes("06.slowest_op", aten_only)


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

    hint = assert_fails("06.slowest_op", warmed_profile(pick), "*total* time includes").hint
    assert "could not use" not in hint, hint
