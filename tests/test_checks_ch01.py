"""The checker of 01.placement: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import os

import pytest
import torch
from grading_helpers import assert_fails, assert_passes

import d2lgpu


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(n_workers)]


def test_placement_reference_passes():
    result = assert_passes("01.placement", place_workers)
    assert len(result.passed) == 7


def test_placement_rejects_hard_coded_cuda():
    assert_fails(
        "01.placement",
        lambda n: [torch.device(f"cuda:{i % 2}") for i in range(n)],
        "with no GPU",
        "try_all_gpus()",
    )


def test_placement_rejects_try_gpu_per_worker():
    # try_gpu(i) falls back to the CPU for i >= the number of GPUs
    assert_fails(
        "01.placement",
        lambda n: [d2lgpu.try_gpu(i) for i in range(n)],
        "went to the CPU while cuda:0 exists",
        "try_gpu(i) falls back to the CPU",
        "round-robin",
    )
    assert_fails(  # the CPU put in the rotation beside the GPUs
        "01.placement",
        lambda n: [[torch.device("cpu"), *d2lgpu.try_all_gpus()][i % 2] for i in range(n)],
        "went to the CPU while cuda:0 exists",
        "a list of devices with the CPU in it rotates onto it",
    )


def test_placement_rejects_everything_on_the_first_device():
    assert_fails("01.placement", lambda n: [d2lgpu.try_all_gpus()[0]] * n, "cuda:1 got no worker")


def test_placement_rejects_one_device_per_worker_only_up_to_the_device_count():
    assert_fails("01.placement", lambda n: d2lgpu.try_all_gpus()[:n], "one device per worker")


def test_placement_alternatives_pass():
    import itertools

    def with_cycle(n_workers):
        return list(itertools.islice(itertools.cycle(d2lgpu.try_all_gpus()), n_workers))

    assert_passes("01.placement", with_cycle)


def test_placement_names_device_names_returned_for_devices_last():
    # The prompt asks for torch.device objects; names are right in every other way, so the
    # hint comes after every placement rule, and a wrong placement is named first.
    def with_strings(n_workers):
        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if gpus == 0:
            return ["cpu"] * n_workers
        return [f"cuda:{i % gpus}" for i in range(n_workers)]

    result = assert_fails(
        "01.placement",
        with_strings,
        "the devices are right, but worker 0's entry is the str 'cuda:0', not a torch.device",
        "torch.device(name)",
    )
    assert len(result.passed) == 5
    assert_fails("01.placement", lambda n: ["cuda:0"] * n, "a hard-coded 'cuda'")


def test_placement_names_a_result_kept_from_the_first_call():
    import functools

    @functools.cache
    def cached(n_workers):
        return place_workers(n_workers)

    assert_fails(
        "01.placement",
        cached,
        "place_workers(5) returned the same devices with no GPU and with 2 GPUs, while "
        "place_workers(6) with 2 GPUs uses them: the result for 5 workers was kept",
        "Compute the list in every call",
    )
    # Kept for every n (a list made once): the hint about asking at call time, as before.
    devices = d2lgpu.try_all_gpus()
    assert_fails("01.placement", lambda n: [devices[0]] * n, "at call time")


def test_placement_names_a_result_kept_under_a_key_that_misses_the_number_of_gpus():
    kept = {}

    def cached_on_availability(n_workers):  # right at its first call for each key
        key = (torch.cuda.is_available(), n_workers)
        if key not in kept:
            kept[key] = place_workers(n_workers)
        return list(kept[key])

    assert_fails(
        "01.placement",
        cached_on_availability,
        "with 1 GPU(s), place_workers(5) returned what it returned for 5 workers with 2 GPU(s), "
        "while place_workers(14), never asked before, is right: a result kept from an earlier call (a cache keyed on the number of workers, or on "
        "torch.cuda.is_available()) misses a change in the number of GPUs. Compute the list in "
        "every call, from try_all_gpus()",
    )


def test_placement_with_no_gpu_and_no_device_says_the_cpu_is_one():
    assert_fails(
        "01.placement",
        lambda n: [torch.device(f"cuda:{i}") for i in range(d2lgpu.num_gpus())][:n],
        "with 0 GPU(s), place_workers(5) returned 0 device(s)",
        "with no GPU, each worker goes to the CPU: try_all_gpus() returns [cpu]",
    )


def test_placement_rejects_a_fixed_number_of_devices():
    def two_at_most(n_workers):
        devices = d2lgpu.try_all_gpus()[:2]
        return [devices[i % len(devices)] for i in range(n_workers)]

    result = assert_fails("01.placement", two_at_most, "cuda:2 got no worker", "every device")
    assert len(result.passed) == 4  # the four original cases cannot see it


def test_placement_rejects_devices_listed_once_outside_the_function():
    devices = d2lgpu.try_all_gpus()  # [cpu] here: made before the checker fakes GPUs

    def cached(n_workers):
        return [devices[i % len(devices)] for i in range(n_workers)]

    # Listed on this machine: [cpu] without a GPU, [cuda:0, ...] with one.
    mistake = "every worker went to the CPU" if devices[0].type == "cpu" else "the same devices"
    assert_fails("01.placement", cached, mistake, "at call time")


def test_placement_rejects_blocks_instead_of_round_robin():
    def blocks(n_workers):
        devices = d2lgpu.try_all_gpus()
        return [devices[i * len(devices) // n_workers] for i in range(n_workers)]

    assert_fails("01.placement", blocks, "worker 1 should go to cuda:1 but went to cuda:0")


def test_placement_rejects_a_generator_and_an_index_without_cuda():
    assert_fails(
        "01.placement",
        lambda n: (d2lgpu.try_all_gpus()[i % len(d2lgpu.try_all_gpus())] for i in range(n)),
        "returned a generator",
        "return a list",
    )

    def bare_cuda(n_workers):
        gpus = d2lgpu.num_gpus()
        return [torch.device("cuda" if gpus else "cpu") for _ in range(n_workers)]

    assert_fails("01.placement", bare_cuda, "without an index")


def test_no_first_fail_prints_the_answers_code():
    # A hint names the mistake and the helper to use, never the formula to paste
    def blocks(n_workers):
        devices = d2lgpu.try_all_gpus()
        return [devices[i * len(devices) // n_workers] for i in range(n_workers)]

    answers = [
        lambda n: [d2lgpu.try_gpu(i) for i in range(n)],
        lambda n: [d2lgpu.try_all_gpus()[0]] * n,
        lambda n: [torch.device(f"cuda:{i % 2}") for i in range(n)],
        blocks,
        lambda n: d2lgpu.try_all_gpus()[:2] * n,
    ]
    for answer in answers:
        hint = assert_fails("01.placement", answer).hint
        assert "%" not in hint and "devices[" not in hint and "devices =" not in hint, hint


def test_placement_hints_in_full_for_a_non_function_no_workers_short_lists_and_late_workers():
    assert_fails(
        "01.placement", 42, "pass the function itself: check('01.placement', place_workers)"
    )

    def one_for_none(n_workers):
        return place_workers(max(n_workers, 1))

    assert_fails(
        "01.placement",
        one_for_none,
        "with 2 GPU(s), place_workers(0) returned 1 device(s): return one device per worker, so "
        "an empty list for no worker",
    )

    def one_per_device(n_workers):
        return place_workers(max(n_workers, d2lgpu.num_gpus()))

    assert_fails(
        "01.placement",
        one_per_device,
        "with 3 GPU(s), place_workers(2) returned 3 device(s): return one device per worker, not "
        "one per device",
    )

    def one_short_with_gpus(n_workers):
        devices = place_workers(n_workers)
        return devices[:-1] if d2lgpu.num_gpus() else devices

    result = assert_fails(
        "01.placement",
        one_short_with_gpus,
        "with 2 GPU(s), place_workers(5) returned 4 device(s): return one device per worker, also "
        "when there are more workers than devices",
    )
    assert result.hint.endswith("more workers than devices"), result.hint  # no word of the CPU

    assert_fails("01.placement", lambda n: [object()] * n, "return torch.device objects")

    def first_five_only(n_workers):  # round-robin for the first five workers, then cuda:0
        devices = place_workers(n_workers)
        return [d if i < 5 else devices[0] for i, d in enumerate(devices)]

    assert_fails(
        "01.placement",
        first_five_only,
        "with 3 GPU(s), worker 5 should go to cuda:2 but went to cuda:0: in round-robin order, "
        "consecutive workers go to consecutive devices, back to the first after the last",
    )


def test_placement_names_one_list_refilled_by_every_call():
    def refilled(n_workers, _out=[]):  # noqa: B006 - the mistake under test
        _out[:] = place_workers(n_workers)
        return _out

    assert_fails(
        "01.placement",
        refilled,
        "with 2 GPUs place_workers(3) returned [cuda:0, cuda:1, cuda:0], and after "
        "place_workers(5) with 3 GPUs, that list holds [cuda:0, cuda:1, cuda:2, cuda:0, "
        "cuda:1], the very list it returned then: every call refills the same list (a mutable "
        "default argument such as out=[], or a list made outside the function), so a "
        "placement the caller kept changes under it. Build a new list in every call",
    )
    # A new list each call, and a tuple (which cannot be refilled), pass.
    assert_passes("01.placement", lambda n: tuple(place_workers(n)))

    def refilled_copied(n_workers, _out=[]):  # noqa: B006 - the first caller gets the list
        _out[:] = place_workers(n_workers)
        return _out if n_workers == 3 else list(_out)

    assert_fails(
        "01.placement",
        refilled_copied,
        "with 2 GPUs place_workers(3) returned [cuda:0, cuda:1, cuda:0], and after "
        "place_workers(5) with 3 GPUs, that list holds [cuda:0, cuda:1, cuda:2, cuda:0, "
        "cuda:1]: every call refills the same list (a mutable default argument such as "
        "out=[], or a list made outside the function), so a placement the caller kept "
        "changes under it. Build a new list in every call",
    )


@pytest.mark.skipif(
    torch.cuda.is_available(),
    reason="a real GPU takes the test tensor: needs a machine without CUDA",
)
def test_placement_names_gpus_tested_by_putting_a_tensor_on_them():
    def tested(n_workers):
        usable = []
        for device in d2lgpu.try_all_gpus():
            try:
                torch.zeros(1).to(device)
                usable.append(device)
            except (RuntimeError, AssertionError):
                pass
        usable = usable or [torch.device("cpu")]
        return [usable[i % len(usable)] for i in range(n_workers)]

    assert_fails(
        "01.placement",
        tested,
        "with 1 GPU(s) every worker went to the CPU, and place_workers called to() with "
        "cuda:0, putting a tensor on a GPU to test it: the checker's GPUs are pretend ones "
        "that torch only reports (is_available, device_count), so every such test fails and "
        "drops them all. Naming a device does not touch the hardware: ask torch for the GPUs "
        "(try_all_gpus(), or torch.cuda.device_count()) and use them, without allocating on "
        "each one",
    )


@pytest.mark.skipif(torch.cuda.is_available(), reason="a real GPU accepts the tensors")
def test_gpu_touches_notes_the_first_call_that_puts_a_tensor_on_a_gpu():
    from d2lgpu.checks._ch01_calls import GpuTouches

    calls = {
        ("to", "cuda:1"): lambda: torch.zeros(2).to("cuda:1"),
        ("empty", "cuda:0"): lambda: torch.empty(2, device="cuda:0"),
        ("cuda", "a GPU"): lambda: torch.zeros(2).cuda(),
        ("to", "cuda:2"): lambda: torch.zeros(2).to(torch.device("cuda", 2)),
    }
    for first, call in calls.items():
        with GpuTouches() as watch:
            with pytest.raises(Exception):  # noqa: B017 - no GPU here: each call fails
                call()
            with pytest.raises(Exception):  # noqa: B017 - a later call: the first is kept
                torch.ones(1).to("cuda:3")
        assert watch.first == first
    with GpuTouches() as watch:
        torch.device("cuda", 0), torch.zeros(2).to("cpu")  # naming a GPU touches nothing
    assert watch.first is None


def test_placement_names_gpus_taken_from_cuda_visible_devices_by_their_physical_numbers():
    """A scheduler that gives the job GPUs 2 and 3 sets CUDA_VISIBLE_DEVICES=2,3; torch then
    sees two GPUs, cuda:0 and cuda:1. The variable is put back as it was."""

    def physical(n_workers):
        ids = os.environ.get("CUDA_VISIBLE_DEVICES")
        if ids is None:
            return place_workers(n_workers)
        devices = [torch.device("cuda", int(i)) for i in ids.split(",")]
        return [devices[i % len(devices)] for i in range(n_workers)]

    before = os.environ.get("CUDA_VISIBLE_DEVICES")
    assert_fails(
        "01.placement",
        physical,
        "with CUDA_VISIBLE_DEVICES=2,3",
        "returned [cuda:2, cuda:3, cuda:2]",
        "torch numbers the visible GPUs from 0",
    )
    assert os.environ.get("CUDA_VISIBLE_DEVICES") == before


def test_placement_names_a_rotation_started_at_the_processs_rank_and_slurms_gpu_numbers():
    def from_local_rank(n_workers):
        devices = d2lgpu.try_all_gpus()
        start = int(os.environ.get("LOCAL_RANK", "0"))
        return [devices[(start + i) % len(devices)] for i in range(n_workers)]

    def slurm_ids(n_workers):
        ids = os.environ.get("SLURM_STEP_GPUS")
        if ids is None:
            return place_workers(n_workers)
        devices = [torch.device("cuda", int(i)) for i in ids.split(",")]
        return [devices[i % len(devices)] for i in range(n_workers)]

    before = {k: os.environ.get(k) for k in ("LOCAL_RANK", "RANK", "SLURM_STEP_GPUS")}
    assert_fails(
        "01.placement",
        from_local_rank,
        "with LOCAL_RANK=1 and RANK=1",
        "returned [cuda:1, cuda:0, cuda:1]",
        "from cuda:0 whatever the process's rank",
    )
    assert_fails("01.placement", slurm_ids, "SLURM_STEP_GPUS", "returned [cuda:2, cuda:3, cuda:2]")
    assert {k: os.environ.get(k) for k in before} == before


def test_a_round_kept_between_calls_is_named_where_it_starts_at_another_device():
    import itertools

    state = {"cycle": None, "devices": None}

    def kept_cycle(n_workers):  # one cycle, made anew only when the devices change
        devices = d2lgpu.try_all_gpus()
        if devices != state["devices"]:
            state["cycle"], state["devices"] = itertools.cycle(devices), devices
        return [next(state["cycle"]) for _ in range(n_workers)]

    hint = assert_fails("01.placement", kept_cycle, "and went round from there: a cycle or a "
                        "counter kept between calls").hint  # fmt: skip
    assert "started at cuda:" in hint and "not at cuda:0" in hint, hint


def test_the_same_list_handed_out_again_is_named_and_a_kept_tuple_is_not():
    memo = {}

    def listed(n_workers):  # the very list of the call before, for the same machine
        devices = tuple(d2lgpu.try_all_gpus())
        key = (n_workers, devices)
        return memo.setdefault(key, [devices[i % len(devices)] for i in range(n_workers)])

    assert_fails("01.placement", listed, "returned the very list it returned an earlier call")
    memo.clear()

    def tupled(n_workers):
        return tuple(listed(n_workers))

    assert_passes("01.placement", tupled)


def test_four_gpus_at_most_is_named_on_a_machine_of_six():
    def capped(n_workers):  # the rule of thumb "no more than 4 GPUs a job"
        devices = d2lgpu.try_all_gpus()[:4]
        return [devices[i % len(devices)] for i in range(n_workers)]

    assert_fails("01.placement", capped, "with 6 GPUs and 7 workers, cuda:4, cuda:5 got no worker")


def test_a_cuda_device_where_there_is_no_gpu_is_named_as_such_not_for_its_index():
    def built_for(n_workers):  # the accelerator torch was built for, there or not
        kind = "cuda"
        devices = [torch.device(kind, i) for i in range(d2lgpu.num_gpus())] or [torch.device(kind)]
        return [devices[i % len(devices)] for i in range(n_workers)]

    hint = assert_fails("01.placement", built_for, "with no GPU, worker 0 was put on cuda, "
                        "which does not exist").hint  # fmt: skip
    assert "without an index" not in hint, hint


@pytest.mark.parametrize("launcher", [None, "", "0"])
def test_placement_names_a_variable_filled_in_with_setdefault_whatever_the_launcher_set(
    launcher, monkeypatch
):
    """os.environ.setdefault writes only where the variable is unset: the checker unsets the
    scheduler's GPU variables while it runs, so the write shows wherever the check runs (CI
    leaves CUDA_VISIBLE_DEVICES unset, a test harness may set it empty), and puts them back."""
    if launcher is None:
        monkeypatch.delenv("CUDA_VISIBLE_DEVICES", raising=False)
    else:
        monkeypatch.setenv("CUDA_VISIBLE_DEVICES", launcher)
    saved = dict(os.environ)
    # a learner's file: the checker's watch tells the answer's writes by their file
    space: dict = {}
    source = (
        "import os, d2lgpu\n"
        "def place_workers(n_workers):\n"
        "    devices = d2lgpu.try_all_gpus()\n"
        "    placed = [devices[i % len(devices)] for i in range(n_workers)]\n"
        "    used = sorted({d.index for d in placed if d.type == 'cuda'})\n"
        "    os.environ.setdefault('CUDA_VISIBLE_DEVICES', ','.join(map(str, used)))\n"
        "    return placed\n"
    )
    exec(compile(source, "/tmp/work/answer.py", "exec"), space)  # noqa: S102
    assert_fails(
        "01.placement",
        space["place_workers"],
        "place_workers leaves the environment changed (os.environ['CUDA_VISIBLE_DEVICES'] = ",
        "Leave the environment to the launcher",
    )
    assert dict(os.environ) == saved
