"""The exercises' checkers: each reference answer passes, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import re
import statistics
import time
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F

import d2lgpu
from d2lgpu.grading import check, exercise_ids

ROOT = Path(__file__).resolve().parent.parent


def assert_fails(exercise_id, answer, *hint_parts):
    result = check(exercise_id, answer, quiet=True)
    assert result.status == "failed", str(result)
    for part in hint_parts:
        assert part in result.hint, f"{part!r} not in the hint: {result.hint}"
    return result


def assert_passes(exercise_id, answer):
    result = check(exercise_id, answer, quiet=True)
    assert result.ok, str(result)
    assert str(result).startswith(f"PASS {exercise_id}: these checks passed:")
    return result


def test_every_exercise_has_a_checker():
    assert exercise_ids() == [
        "01.placement",
        "02.concurrency",
        "02.frobenius",
        "02.time_fn",
        "03.device_bug",
        "03.parameters",
        "04.amp",
        "05.ddp",
        "06.slowest_op",
        "07.relu_mul",
        "07.rms_norm",
        "09.checkpoint",
        "09.pipeline",
    ]


def stub(*args):
    raise NotImplementedError("your code here")


@pytest.mark.parametrize("exercise_id", ["01.placement", "02.time_fn", "04.amp", "06.slowest_op"])
def test_a_stub_is_not_attempted_yet(exercise_id):
    assert check(exercise_id, stub, quiet=True).status == "not attempted"


def test_pairs_and_triples_of_stubs_are_not_attempted_yet():
    assert check("02.frobenius", (stub, stub), quiet=True).status == "not attempted"
    assert check("02.concurrency", stub, quiet=True).status == "not attempted"
    assert check("03.parameters", (stub, stub, stub), quiet=True).status == "not attempted"
    assert check("03.device_bug", stub, quiet=True).status == "not attempted"


# ---------------------------------------------------------------------------------------------
# 01.placement


def place_workers(n_workers):
    devices = d2lgpu.try_all_gpus()
    return [devices[i % len(devices)] for i in range(n_workers)]


def test_placement_reference_passes():
    result = assert_passes("01.placement", place_workers)
    assert len(result.passed) == 5


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
        "i % len(devices)",
    )


def test_placement_rejects_everything_on_the_first_device():
    assert_fails("01.placement", lambda n: [d2lgpu.try_all_gpus()[0]] * n, "cuda:1 got no worker")


def test_placement_rejects_one_device_per_worker_only_up_to_the_device_count():
    assert_fails("01.placement", lambda n: d2lgpu.try_all_gpus()[:n], "one device per worker")


def test_placement_alternatives_pass():
    import itertools

    def with_cycle(n_workers):
        return list(itertools.islice(itertools.cycle(d2lgpu.try_all_gpus()), n_workers))

    def with_strings(n_workers):
        gpus = torch.cuda.device_count() if torch.cuda.is_available() else 0
        if gpus == 0:
            return ["cpu"] * n_workers
        return [f"cuda:{i % gpus}" for i in range(n_workers)]

    assert_passes("01.placement", with_cycle)
    assert_passes("01.placement", with_strings)


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


# ---------------------------------------------------------------------------------------------
# 02.time_fn


def time_fn(work, sync, clock=time.perf_counter, repeats=5):
    work()
    sync()
    times = []
    for _ in range(repeats):
        start = clock()
        work()
        sync()
        times.append(clock() - start)
    return statistics.median(times)


def test_time_fn_reference_passes():
    assert_passes("02.time_fn", time_fn)


def test_time_fn_without_sync_is_rejected():
    def no_sync(work, sync, clock, repeats=5):
        work()
        sync()
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            times.append(clock() - start)
        return statistics.median(times)

    assert_fails("02.time_fn", no_sync, "work() only queues the job", "call sync() after work()")


def test_time_fn_syncing_only_before_the_work_is_rejected():
    def sync_first(work, sync, clock, repeats=5):
        work()
        sync()
        times = []
        for _ in range(repeats):
            sync()
            start = clock()
            work()
            times.append(clock() - start)
        return statistics.median(times)

    assert_fails("02.time_fn", sync_first, "call sync() after work()")


def test_time_fn_without_warm_up_is_told_so():
    def no_warmup(work, sync, clock, repeats=5):
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            times.append(clock() - start)
        return statistics.median(times)

    result = assert_fails("02.time_fn", no_warmup, "before any warm-up call")
    assert result.passed == []


def test_time_fn_warm_up_without_sync_is_told_so():
    def warmup_unsynced(work, sync, clock, repeats=5):
        work()
        times = []
        for _ in range(repeats):
            start = clock()
            work()
            sync()
            times.append(clock() - start)
        return statistics.median(times)

    assert_fails("02.time_fn", warmup_unsynced, "call sync() before the first clock read")


def test_time_fn_returning_the_mean_is_asked_for_the_median():
    def mean_of_block(work, sync, clock, repeats=5):
        work()
        sync()
        start = clock()
        for _ in range(repeats):
            work()
        sync()
        return (clock() - start) / repeats

    assert_fails("02.time_fn", mean_of_block, "5 times between two clock reads", "median")


def test_time_fn_reading_its_own_clock_is_told_to_use_the_given_one():
    def own_clock(work, sync, clock, repeats=5):
        return time_fn(work, sync, time.perf_counter, repeats)

    assert_fails("02.time_fn", own_clock, "never called clock()")


def timer_variant(*, statistic=statistics.median, repeats_used=None, sync_before=False,
                  scale=1.0):  # fmt: skip
    """time_fn with one thing changed, as a learner might write it."""

    def answer(work, sync, clock, repeats=5):
        work()
        sync()
        times = []
        for _ in range(repeats if repeats_used is None else repeats_used):
            start = clock()
            if sync_before:
                sync()
                work()
            else:
                work()
                sync()
            times.append(clock() - start)
        return statistic(times) * scale if scale != 1.0 else statistic(times)

    return answer


def test_time_fn_alternatives_pass():
    def chained(work, sync, clock, repeats=5):
        work()
        sync()
        marks = [clock()]
        for _ in range(repeats):
            work()
            sync()
            marks.append(clock())  # the end of one call is the start of the next
        gaps = [b - a for a, b in zip(marks[:-1], marks[1:], strict=True)]
        return torch.tensor(gaps, dtype=torch.float64).median()

    def extra_syncs(work, sync, clock, repeats=5):
        for _ in range(3):  # a longer warm-up
            work()
        sync()
        times = []
        for _ in range(repeats):
            sync()
            start = clock()
            work()
            sync()
            end = clock()
            times.append(end - start)
        times.sort()
        mid = len(times) // 2
        return times[mid] if len(times) % 2 else (times[mid - 1] + times[mid]) / 2

    assert_passes("02.time_fn", chained)
    assert_passes("02.time_fn", extra_syncs)


def test_time_fn_rejects_a_sync_before_the_work_inside_the_timing():
    assert_fails(
        "02.time_fn",
        timer_variant(sync_before=True),
        "with sync() before work(), the previous call",
        "call sync() after work()",
    )


def test_time_fn_rejects_ignoring_repeats():
    assert_fails(
        "02.time_fn",
        timer_variant(repeats_used=5),
        "called work() 5 times after its first clock read, for repeats=3",
        "use the argument",
    )


def test_time_fn_rejects_nan_and_other_non_times():
    assert_fails("02.time_fn", timer_variant(statistic=lambda t: float("nan")), "returned nan")
    assert_fails("02.time_fn", timer_variant(statistic=lambda t: t), "returned a list")
    assert_fails("02.time_fn", timer_variant(statistic=lambda t: 0.0), "finite number > 0")


def test_time_fn_names_milliseconds_and_the_wrong_statistic():
    assert_fails("02.time_fn", timer_variant(scale=1e3), "in milliseconds", "return seconds")
    assert_fails("02.time_fn", timer_variant(statistic=min), "the fastest call", "median")
    assert_fails("02.time_fn", timer_variant(statistic=statistics.fmean), "the mean", "median")
    assert_fails("02.time_fn", timer_variant(statistic=sum), "the sum of all calls")


# ---------------------------------------------------------------------------------------------
# 02.frobenius


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())  # a host read every step
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device)
    norms = []
    for _ in range(steps):
        X = X @ A  # the same powers of A, multiplied from the other side
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).cpu().tolist()


def test_frobenius_reference_passes():
    assert_passes("02.frobenius", (log_norms_per_step, log_norms_at_end))


def test_frobenius_wants_both_functions():
    assert_fails("02.frobenius", log_norms_per_step, "pass both functions as a pair")


def test_frobenius_rejects_an_overflowing_product():
    def squaring(A, steps):
        norms = []
        for _ in range(steps):
            A = A @ A
            norms.append(torch.linalg.matrix_norm(A).item())
        return norms

    assert_fails("02.frobenius", (squaring, log_norms_at_end), "overflowed", "X = X / norm")


def test_frobenius_rejects_an_unnormalized_product():
    def unnormalized(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X))
        return torch.stack(norms).tolist()

    assert_fails("02.frobenius", (log_norms_per_step, unnormalized), "log_norms_at_end", "inf")


def test_frobenius_rejects_a_per_step_item_in_the_at_end_version():
    result = assert_fails(
        "02.frobenius",
        (log_norms_per_step, log_norms_per_step),
        "log_norms_at_end read device data on the host 1000 times for 1000 steps (1000 x item())",
        "Keep the norms on the device",
    )
    assert "the per-step version reads every norm on the host" in result.passed[-1]


def test_frobenius_rejects_one_float_per_element_of_a_device_tensor():
    def floats_at_end(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        log = torch.empty(steps, device=A.device)
        for i in range(steps):
            X = A @ X
            log[i] = torch.linalg.matrix_norm(X)
            X = X / log[i]
        return [float(v) for v in log]  # one read of the device per element

    assert_fails(
        "02.frobenius", (log_norms_per_step, floats_at_end), "1000 x __float__", "once at the end"
    )


def test_frobenius_alternatives_pass():
    def copied_once_then_floats(A, steps):
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        log = A.new_empty(steps)
        for i in range(steps):
            X = A @ X
            log[i] = X.norm()
            X = X / log[i]
        return [float(v) for v in log.cpu()]  # one transfer; then host floats, no waits

    def stacked_per_step(A, steps):
        X = torch.eye(A.shape[0]).to(A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.norm(X)
            norms.append(float(norm))
            X = X / norm
        return norms

    def normalised_on_device(A, steps):
        X = torch.eye(len(A), device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X, ord="fro"))
            X.div_(norms[-1])
        return torch.stack(norms).tolist()

    assert_passes("02.frobenius", (stacked_per_step, copied_once_then_floats))
    assert_passes("02.frobenius", (stacked_per_step, normalised_on_device))


def test_frobenius_sees_placement_without_a_gpu():
    # Each would synchronize (or fail) every step on a GPU, though a CPU runs it fast.
    def buffer_without_device(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        log = torch.empty(steps)  # made on the CPU
        for i in range(steps):
            X = A @ X
            log[i] = torch.linalg.matrix_norm(X)  # a copy from the GPU each step
            X = X / log[i]
        return log.tolist()

    def eye_without_device(A, steps):
        X = torch.eye(A.shape[0])
        norms = []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X))
            X = X / norms[-1]
        return torch.stack(norms).tolist()

    def tensor_of_a_list(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X))
            X = X / norms[-1]
        return torch.tensor(norms).tolist()  # reads every 0-d tensor on its own

    def synchronizes_each_step(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X))
            X = X / norms[-1]
            d2lgpu.sync(A.device)
        return torch.stack(norms).tolist()

    pair = (log_norms_per_step, buffer_without_device)
    assert_fails("02.frobenius", pair, "__setitem__ of a device value into a CPU tensor")
    assert_fails("02.frobenius", pair, "torch.empty(...) without device=")
    assert_fails(
        "02.frobenius",
        (log_norms_per_step, eye_without_device),
        "torch.eye(...) without device=",
        "device=A.device",
    )
    assert_fails(
        "02.frobenius",
        (log_norms_per_step, tensor_of_a_list),
        "torch.tensor() of a list of device tensors",
    )
    assert_fails(
        "02.frobenius", (log_norms_per_step, synchronizes_each_step), "torch.cuda.synchronize()"
    )
    assert_fails(
        "02.frobenius", (eye_without_device, log_norms_at_end), "log_norms_per_step", "torch.eye"
    )


def test_frobenius_rejects_a_per_step_version_that_never_reads():
    def lazy(A, steps):
        return log_norms_at_end(A, steps)

    assert_fails(
        "02.frobenius",
        (lazy, log_norms_at_end),
        "log_norms_per_step read device data on the host 1 times for 1000 steps",
    )


def test_frobenius_rejects_the_norm_taken_before_the_product():
    def norm_first(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm.item())
            X = A @ (X / norm)
        return norms

    assert_fails("02.frobenius", (norm_first, log_norms_at_end), "the norm after step 1", "||A||_F")


def test_frobenius_returning_a_tensor_is_told_to_return_floats():
    def tensor_at_end(A, steps):
        return torch.tensor(log_norms_at_end(A, steps))

    assert_fails("02.frobenius", (log_norms_per_step, tensor_at_end), "list of Python floats")


# ---------------------------------------------------------------------------------------------
# 02.concurrency


def run_concurrently(x, y, lanes):
    fx = lanes[0].submit(torch.matmul, x, x)
    fy = lanes[1].submit(torch.matmul, y, y)
    return fx.result(), fy.result()


def test_concurrency_reference_passes():
    assert_passes("02.concurrency", run_concurrently)


def test_concurrency_passes_with_lambdas_too():
    def with_lambdas(x, y, lanes):
        futures = [lanes[0].submit(lambda: x @ x), lanes[1].submit(lambda: y @ y)]
        return tuple(f.result() for f in futures)

    assert_passes("02.concurrency", with_lambdas)


def test_concurrency_rejects_waiting_between_the_launches():
    def waits_between(x, y, lanes):
        xx = lanes[0].submit(torch.matmul, x, x).result()
        yy = lanes[1].submit(torch.matmul, y, y).result()
        return xx, yy

    result = assert_fails(
        "02.concurrency", waits_between, "you waited for lanes[0] (.result())", "Submit both first"
    )
    assert len(result.passed) == 2  # correct results, one product per lane


def test_concurrency_rejects_a_device_sync_between_the_launches():
    def synchronizes_between(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        torch.cuda.synchronize()  # the checker records it, on any machine
        fy = lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails("02.concurrency", synchronizes_between, "torch.cuda.synchronize()")


def test_concurrency_rejects_both_products_on_one_lane():
    def one_lane(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[0].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails("02.concurrency", one_lane, "both products went to lanes[0]")


def test_concurrency_rejects_bypassing_the_lanes_and_wrong_results():
    assert_fails("02.concurrency", lambda x, y, lanes: (x @ x, y @ y), "nothing was submitted")
    assert_fails("02.concurrency", lambda x, y, lanes: (y @ y, x @ x), "swapped")
    assert_fails(
        "02.concurrency",
        lambda x, y, lanes: (lanes[0].submit(torch.matmul, x, x), lanes[1].submit(torch.mm, y, y)),
        "you returned futures",
    )


def test_concurrency_alternatives_pass():
    def second_lane_first(x, y, lanes):
        fy = lanes[1].submit(torch.matmul, y, y)
        fx = lanes[0].submit(torch.matmul, x, x)
        return fx.result(), fy.result()

    def with_wait(x, y, lanes):
        from concurrent.futures import wait

        futures = [lane.submit(torch.mm, a, a) for lane, a in zip(lanes, (x, y), strict=True)]
        wait(futures)
        return [f.result() for f in futures]

    assert_passes("02.concurrency", second_lane_first)
    assert_passes("02.concurrency", with_wait)


def test_concurrency_rejects_products_on_the_wrong_lanes():
    def crossed(x, y, lanes):
        fy = lanes[0].submit(torch.matmul, y, y)
        fx = lanes[1].submit(torch.matmul, x, x)
        return fx.result(), fy.result()  # right results, wrong lanes

    assert_fails("02.concurrency", crossed, "lanes[0] computed the other product, not x @ x")


def test_concurrency_rejects_results_computed_again_outside_the_lanes():
    def recomputed(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        fx.result(), fy.result()
        return x @ x, y @ y

    assert_fails("02.concurrency", recomputed, "not the ones the lanes computed")


def test_concurrency_rejects_a_product_submitted_twice():
    def twice(x, y, lanes):
        fx = lanes[0].submit(torch.matmul, x, x)
        lanes[0].submit(torch.matmul, x, x)
        fy = lanes[1].submit(torch.matmul, y, y)
        return fx.result(), fy.result()

    assert_fails("02.concurrency", twice, "the lanes got 3 launches", "exactly one product")


# ---------------------------------------------------------------------------------------------
# 03.parameters


def halve_first_layer(net):
    with torch.no_grad():
        net[0].weight.mul_(0.5)


def save_parameters(net, path):
    torch.save(net.state_dict(), path)


def load_parameters(make_net, path, device):
    net = make_net().to(device)
    net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
    return net


PARAMETERS = (halve_first_layer, save_parameters, load_parameters)


def test_parameters_reference_passes():
    assert len(assert_passes("03.parameters", PARAMETERS).passed) == 4


def test_parameters_rejects_loading_without_map_location():
    def no_map_location(make_net, path, device):
        net = make_net().to(device)
        net.load_state_dict(torch.load(path, weights_only=True))
        return net

    result = assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, no_map_location),
        "a checkpoint written on a GPU this machine does not have",
        "map_location=device",
    )
    assert len(result.passed) == 2


def test_parameters_rejects_replacing_the_parameter():
    def replaces(net):
        net[0].weight = torch.nn.Parameter(net[0].weight.detach() * 0.5)

    assert_fails(
        "03.parameters", (replaces, save_parameters, load_parameters), "different Parameter object"
    )


def test_parameters_rejects_an_in_place_change_under_autograd():
    def under_autograd(net):
        net[0].weight.mul_(0.5)

    assert_fails(
        "03.parameters", (under_autograd, save_parameters, load_parameters), "torch.no_grad()"
    )


def test_parameters_rejects_saving_the_whole_module():
    def whole_module(net, path):
        torch.save(net, path)

    assert_fails(
        "03.parameters", (halve_first_layer, whole_module, load_parameters), "save net.state_dict()"
    )


def test_parameters_alternatives_pass():
    def halve_through_data(net):
        net[0].weight.data *= 0.5

    def save_copies_on_the_cpu(net, path):
        torch.save({k: v.detach().cpu() for k, v in net.state_dict().items()}, path)

    def load_then_move(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
        return net.to(device)

    def load_with_assign(make_net, path, device):
        state = torch.load(path, map_location=device, weights_only=True)
        net = make_net().to(device)
        net.load_state_dict(state, assign=True)
        return net

    assert_passes("03.parameters", (halve_through_data, save_copies_on_the_cpu, load_then_move))
    assert_passes("03.parameters", (halve_first_layer, save_parameters, load_with_assign))


def test_parameters_rejects_a_save_that_moves_the_model():
    def moves_to_cpu(net, path):
        torch.save(net.cpu().state_dict(), path)

    def to_cpu(net, path):
        net.to("cpu")
        torch.save(net.state_dict(), path)

    def halves_it(net, path):
        torch.save(net.half().state_dict(), path)

    for save in (moves_to_cpu, to_cpu):
        assert_fails(
            "03.parameters",
            (halve_first_layer, save, load_parameters),
            "moved the model itself to the CPU",
        )
    assert_fails("03.parameters", (halve_first_layer, halves_it, load_parameters), "dtype")


def test_parameters_rejects_loads_that_leave_the_model_on_the_wrong_device():
    def stays_on_cpu(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location="cpu", weights_only=True))
        return net

    def model_not_moved(make_net, path, device):
        net = make_net()
        net.load_state_dict(torch.load(path, map_location=device, weights_only=True))
        return net

    # Without a GPU the meta device shows the mistake; with one, the GPU itself does.
    expected = (
        ("parameters on cpu", "net.to(device)")
        if torch.cuda.is_available()
        else ("asked for device meta", "make_net().to(device)")
    )
    assert_fails("03.parameters", (halve_first_layer, save_parameters, stays_on_cpu), *expected)
    assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, model_not_moved),
        "the model stayed on the CPU",
    )


def test_parameters_rejects_returning_no_model_and_halving_everything():
    def returns_state(make_net, path, device):
        return torch.load(path, map_location=device, weights_only=True)

    assert_fails(
        "03.parameters",
        (halve_first_layer, save_parameters, returns_state),
        "load_parameters returned a OrderedDict: return the model",
    )

    def halves_all(net):
        with torch.no_grad():
            for p in net.parameters():
                p.mul_(0.5)

    assert_fails(
        "03.parameters", (halves_all, save_parameters, load_parameters), "only net[0].weight"
    )


# ---------------------------------------------------------------------------------------------
# 03.device_bug


def train_step(net, X, y, opt, device):
    X, y = X.to(device), y.to(device)
    class_weights = torch.tensor([1.0, 2.0, 1.0], device=device)
    loss = F.cross_entropy(net(X), y, weight=class_weights)
    opt.zero_grad()
    loss.backward()
    opt.step()
    return loss.detach()


def test_device_bug_reference_passes():
    assert len(assert_passes("03.device_bug", train_step).passed) == 4


def test_device_bug_alternatives_pass():
    def weights_then_move(net, X, y, opt, device):
        weights = torch.tensor([1.0, 2.0, 1.0]).to(device)
        out = net(X.to(device, non_blocking=True))
        loss = F.cross_entropy(out, y.to(device), weight=weights)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        return loss.detach()

    def device_from_the_model(net, X, y, opt, device):
        where = next(net.parameters()).device
        X, y = X.to(where), y.to(where)
        loss = F.cross_entropy(net(X), y, weight=torch.as_tensor([1.0, 2.0, 1.0], device=where))
        net.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_passes("03.device_bug", weights_then_move)
    assert_passes("03.device_bug", device_from_the_model)


def test_device_bug_names_class_weights_made_from_the_unmoved_batch():
    def weights_from_x(net, X, y, opt, device):
        class_weights = torch.tensor([1.0, 2.0, 1.0], device=X.device)  # before X moves
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    result = assert_fails(
        "03.device_bug", weights_from_x, "torch.tensor(...) made in your step stays on the CPU"
    )
    assert "batch" not in result.hint


def test_device_bug_names_a_missing_return_zero_grad_and_a_new_optimizer():
    def returns_nothing(*args):
        train_step(*args)

    result = assert_fails("03.device_bug", returns_nothing, "train_step returned None")
    assert "ch03_networks" not in result.hint and "line" not in result.hint

    def no_zero_grad(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y, weight=torch.tensor([1.0, 2.0, 1.0], device=device))
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", no_zero_grad, "keep opt.zero_grad()")

    def own_optimizer(net, X, y, opt, device):
        return train_step(net, X, y, torch.optim.SGD(net.parameters(), lr=0.1), device)

    assert_fails("03.device_bug", own_optimizer, "use the optimizer you are given")


def test_device_bug_rejects_a_hard_coded_gpu():
    def cuda_by_name(net, X, y, opt, device):
        return train_step(net, X.cuda(), y.cuda(), opt, device)

    assert_fails("03.device_bug", cuda_by_name, "uses the GPU by name", ".to(device)")

    def weights_on_the_gpu_by_name(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        class_weights = torch.tensor([1.0, 2.0, 1.0], device="cuda")
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", weights_on_the_gpu_by_name, "uses the GPU by name")


def test_device_bug_rejects_the_original_buggy_step():
    def buggy(net, X, y, opt, device):
        class_weights = torch.tensor([1.0, 2.0, 1.0])
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", buggy, "torch.tensor(...) made in your step without device=")


def test_device_bug_rejects_a_batch_left_on_the_cpu():
    def data_left(net, X, y, opt, device):
        class_weights = torch.tensor([1.0, 2.0, 1.0], device=device)
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    result = assert_fails("03.device_bug", data_left, "the batch X is still on the CPU")
    assert len(result.passed) == 1


def test_device_bug_rejects_moving_the_model_to_the_cpu():
    def model_moved(net, X, y, opt, device):
        net.to("cpu")
        class_weights = torch.tensor([1.0, 2.0, 1.0])
        loss = F.cross_entropy(net(X), y, weight=class_weights)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", model_moved, "keep the model on its device")


def test_device_bug_rejects_an_item_per_step_and_a_dropped_weight():
    def with_item(*args):
        return train_step(*args).item()

    assert_fails("03.device_bug", with_item, "return the loss tensor")

    def unweighted(net, X, y, opt, device):
        X, y = X.to(device), y.to(device)
        loss = F.cross_entropy(net(X), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        return loss.detach()

    assert_fails("03.device_bug", unweighted, "the class weights are missing")


# ---------------------------------------------------------------------------------------------
# 04.amp


def make_amp_loop(*, unscale=True, clip_before_unscale=False, update=True, autocast_forward=True,
                  scaler_step=True):  # fmt: skip
    def train_amp(net, batches, opt, device_type, dtype, scaler):
        losses = []
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype, enabled=autocast_forward):
                out = net(X)
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(out, y)
            opt.zero_grad()
            if scaler is None:
                loss.backward()
                torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                opt.step()
            else:
                scaler.scale(loss).backward()
                if clip_before_unscale:
                    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                if unscale:
                    scaler.unscale_(opt)
                if not clip_before_unscale:
                    torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
                scaler.step(opt) if scaler_step else opt.step()
                if update:
                    scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)

    return train_amp


def test_amp_reference_passes():
    assert len(assert_passes("04.amp", make_amp_loop()).passed) == 6


def test_amp_rejects_clipping_before_unscaling():
    assert_fails(
        "04.amp",
        make_amp_loop(clip_before_unscale=True),
        "call scaler.unscale_(opt) before clip_grad_norm_",
    )
    assert_fails("04.amp", make_amp_loop(unscale=False), "clipped while still scaled")


def test_amp_rejects_a_scaler_that_is_never_updated():
    assert_fails(
        "04.amp", make_amp_loop(update=False), "call scaler.update() after scaler.step(opt)"
    )


def test_amp_rejects_a_forward_outside_autocast():
    assert_fails("04.amp", make_amp_loop(autocast_forward=False), "produced torch.float32 outputs")


def test_amp_rejects_opt_step_instead_of_scaler_step():
    assert_fails("04.amp", make_amp_loop(scaler_step=False), "call scaler.step(opt) instead")


def test_amp_rejects_a_half_model_and_a_bf16_path_that_needs_a_scaler():
    loop = make_amp_loop()

    def half(net, *args):
        return loop(net.half(), *args)

    assert_fails("04.amp", half, "no longer float32")

    def always_scales(net, batches, opt, device_type, dtype, scaler):
        losses = []
        for X, y in batches:
            with torch.amp.autocast(device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            opt.zero_grad()
            scaler.scale(loss).backward()
            scaler.unscale_(opt)
            torch.nn.utils.clip_grad_norm_(net.parameters(), 1.0)
            scaler.step(opt)
            scaler.update()
            losses.append(loss.detach())
        return torch.stack(losses)

    result = assert_fails("04.amp", always_scales, "with bfloat16 the scaler is None")
    assert len(result.passed) == 4  # everything float16 passed


def amp_loop(*, read_each_step=False, zero_grad="before", device_type=None, loss_inside=True):
    """A correct train_amp written another way (clip imported by name), with one change."""
    from torch.nn.utils import clip_grad_norm_

    def train_amp(net, batches, opt, dev_type, dtype, scaler, max_norm=1.0):
        losses = []
        for X, y in batches:
            if zero_grad == "before":
                opt.zero_grad(set_to_none=False)
            with torch.autocast(device_type or dev_type, dtype=dtype):
                out = net(X)
                loss = F.cross_entropy(out, y) if loss_inside else None
            if loss is None:
                loss = F.cross_entropy(out, y)
            (scaler.scale(loss) if scaler else loss).backward()
            if zero_grad == "between":
                opt.zero_grad()
            if scaler:
                scaler.unscale_(opt)
            clip_grad_norm_(net.parameters(), max_norm)
            if scaler:
                scaler.step(opt)
                scaler.update()
            else:
                opt.step()
            losses.append(loss.item() if read_each_step else loss.detach())
        return losses if read_each_step else torch.stack(losses)

    return train_amp


def test_amp_alternatives_pass():
    assert_passes("04.amp", amp_loop())  # clip_grad_norm_ imported by name

    def with_net_zero_grad(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        losses = torch.zeros(len(batches), device=batches[0][0].device)
        for i, (X, y) in enumerate(batches):
            net.zero_grad()
            with torch.amp.autocast(device_type=device_type, dtype=dtype):
                loss = F.cross_entropy(net(X), y)
            if scaler is not None:
                scaler.scale(loss).backward()
                scaler.unscale_(opt)
            else:
                loss.backward()
            torch.nn.utils.clip_grad_norm_(list(net.parameters()), max_norm=max_norm)
            scaler.step(opt) if scaler is not None else opt.step()
            if scaler is not None:
                scaler.update()
            losses[i] = loss.detach()
        return losses

    assert_passes("04.amp", with_net_zero_grad)


def test_amp_rejects_reading_the_loss_every_step():
    assert_fails("04.amp", amp_loop(read_each_step=True), "16 times", "item", "loss.detach()")


def test_amp_names_a_forgotten_or_misplaced_zero_grad():
    assert_fails("04.amp", amp_loop(zero_grad=None), "opt.zero_grad() before loss.backward()")
    assert_fails("04.amp", amp_loop(zero_grad="between"), "not between backward()")


def test_amp_names_a_hard_coded_device_type_and_a_loss_outside_autocast():
    other = "cuda" if not torch.cuda.is_available() else "cpu"
    assert_fails("04.amp", amp_loop(device_type=other), f"device_type {other!r}")
    assert_fails("04.amp", amp_loop(loss_inside=False), "float16 losses", "inside autocast")


def test_amp_rejects_a_hard_coded_clipping_threshold():
    def threshold_ten(net, batches, opt, device_type, dtype, scaler, max_norm=1.0):
        return amp_loop()(net, batches, opt, device_type, dtype, scaler, max_norm=10.0)

    assert_fails("04.amp", threshold_ten, "not clipped to max_norm=1.0")


# ---------------------------------------------------------------------------------------------
# 06.slowest_op


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
    assert len(assert_passes("06.slowest_op", profiled_key("self_cpu_time_total")).passed) == 4


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
        if torch.cuda.is_available():
            torch.cuda.synchronize()
        acts = [tp.ProfilerActivity.CPU]
        if torch.cuda.is_available():
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
    assert len(result.passed) == 3  # the CPU workloads pass: only a GPU run can tell


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
# 05.ddp


def ddp_variant(tmp_path, name, *edits):
    text = (ROOT / "solutions" / "05_ddp_train.py").read_text()
    for old, new in edits:
        assert old in text, old
        text = text.replace(old, new)
    path = tmp_path / f"{name}.py"
    path.write_text(text)
    return path


def test_ddp_exercise_script_is_not_attempted_and_a_missing_file_is_named(tmp_path):
    assert (
        check("05.ddp", ROOT / "exercises" / "05_ddp_train.py", quiet=True).status
        == "not attempted"
    )
    assert_fails("05.ddp", tmp_path / "nope.py", "there is no file")


def test_ddp_checker_uses_the_scripts_data_and_model():
    from d2lgpu.checks import ch05_ddp

    for folder in ("solutions", "exercises"):
        script = {}
        exec(compile((ROOT / folder / "05_ddp_train.py").read_text(), "script", "exec"), script)
        a, b = ch05_ddp.make_dataset(64, 3).tensors, script["make_dataset"](64, 3).tensors
        assert all(torch.equal(u, v) for u, v in zip(a, b, strict=True))
        with torch.random.fork_rng(devices=[]):
            theirs = script["make_model"](3).state_dict()
        mine = ch05_ddp.make_model(3).state_dict()
        assert all(torch.equal(mine[k], theirs[k]) for k in mine)


SET_EPOCH = "        sampler.set_epoch(epoch)  # a new order each epoch, the same on every rank\n"


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ddp_solution_passes_and_three_mistakes_are_named(tmp_path):
    result = assert_passes("05.ddp", ROOT / "solutions" / "05_ddp_train.py")
    assert len(result.passed) == 3

    no_set_epoch = ddp_variant(tmp_path, "no_set_epoch", (SET_EPOCH, ""))
    assert_fails("05.ddp", no_set_epoch, "call sampler.set_epoch(epoch)")

    no_ddp = ddp_variant(
        tmp_path,
        "no_ddp",
        (
            'net = DDP(model, device_ids=[device.index] if device.type == "cuda" else None)',
            "net = model",
        ),
    )
    assert_fails("05.ddp", no_ddp, "never averaged their gradients", "DistributedDataParallel")

    no_sampler = ddp_variant(
        tmp_path,
        "no_sampler",
        (SET_EPOCH, ""),
        (
            "sampler = DistributedSampler(dataset, shuffle=True, seed=args.seed)\n",
            "gen = torch.Generator().manual_seed(args.seed)\n",
        ),
        ("sampler=sampler)", "shuffle=True, generator=gen)"),
    )
    assert_fails(
        "05.ddp", no_sampler, "each rank went through the whole data set", "DistributedSampler"
    )


@pytest.mark.slow
@pytest.mark.timeout(300)
def test_ddp_wrapper_keys_and_crashes_are_reported(tmp_path):
    module_keys = ddp_variant(
        tmp_path,
        "module_keys",
        ("torch.save(model.state_dict(), args.out)", "torch.save(net.state_dict(), args.out)"),
    )
    assert_fails("05.ddp", module_keys, "start with 'module.'")


def test_ddp_a_crashing_script_is_reported_with_its_own_error(tmp_path, monkeypatch):
    # What torchrun prints when a worker raises (recorded from a real run), without a launch.
    import d2lgpu.distributed as distributed

    output = (
        "2 process(es), training on cpu\n"
        "[rank1]: Traceback (most recent call last):\n"
        '[rank1]:   File "/tmp/x/crash.py", line 83, in main\n'
        "[rank1]:     1 / 0\n"
        "[rank1]: ZeroDivisionError: division by zero\n"
        "E1121 22:40:00 torch/distributed/elastic/multiprocessing/api.py:900] failed\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/runpy.py", line 198, in _run_module_as_main\n'
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
    )

    def failing_launch(script, *args, **kwargs):
        result = distributed.LaunchResult(1, output, 9.0)
        raise distributed.LaunchError("torchrun failed", result)

    monkeypatch.setattr(distributed, "launch", failing_launch)
    script = ddp_variant(tmp_path, "crash")
    result = assert_fails(
        "05.ddp",
        script,
        "ZeroDivisionError: division by zero",
        "line 83, in main",
        "torchrun --standalone",
    )
    assert "ChildFailedError" not in result.hint


@pytest.mark.slow
@pytest.mark.timeout(600)
def test_ddp_a_sampler_without_the_scripts_seed_and_a_rewritten_script(tmp_path):
    no_seed = ddp_variant(
        tmp_path,
        "no_seed",
        (
            "DistributedSampler(dataset, shuffle=True, seed=args.seed)",
            "DistributedSampler(dataset, shuffle=True)",
        ),
    )
    assert_fails("05.ddp", no_seed, "default seed 0", "seed=args.seed")

    # Correct, written differently: explicit replicas and rank, the wrapper's module saved.
    explicit = ddp_variant(
        tmp_path,
        "explicit",
        (
            "DistributedSampler(dataset, shuffle=True, seed=args.seed)",
            "DistributedSampler(dataset, num_replicas=world_size, rank=rank, seed=args.seed)",
        ),
        (
            "torch.save(model.state_dict(), args.out)",
            "torch.save(net.module.state_dict(), args.out)",
        ),
    )
    assert_passes("05.ddp", explicit)

    # Correct, written differently again: shuffle left at its default, the world size asked
    # for, the wrapper's keys stripped when saving.
    stripped = ddp_variant(
        tmp_path,
        "stripped",
        (
            "DistributedSampler(dataset, shuffle=True, seed=args.seed)",
            "DistributedSampler(dataset, seed=args.seed)",
        ),
        (
            "batch_size=args.batch_size // world_size",
            "batch_size=args.batch_size // dist.get_world_size()",
        ),
        (
            "torch.save(model.state_dict(), args.out)",
            'torch.save({k.removeprefix("module."): v for k, v in net.state_dict().items()}, args.out)',
        ),
    )
    assert_passes("05.ddp", stripped)


def saves_as_if(state_of, monkeypatch):
    """Replace torchrun by a launch that saves what a script with some mistake would save."""
    import d2lgpu.distributed as distributed

    def fake_launch(script, *, args, **kwargs):
        out = next(a for a in args if a.startswith("--out="))
        torch.save(state_of(), out.removeprefix("--out="))
        return distributed.LaunchResult(0, "", 1.0)

    monkeypatch.setattr(distributed, "launch", fake_launch)


def test_ddp_each_known_mistake_is_named(tmp_path, monkeypatch):
    from d2lgpu.checks import ch05_ddp

    script = ddp_variant(tmp_path, "any")
    mistakes = ch05_ddp._mistakes(ch05_ddp.SETTINGS)
    assert len(mistakes) == 7
    for state, hint in mistakes:
        saves_as_if(lambda state=state: state, monkeypatch)
        assert_fails("05.ddp", script, hint)
    saves_as_if(ch05_ddp.reference, monkeypatch)
    assert_passes("05.ddp", script)


def test_ddp_a_hanging_script_is_reported_as_stopped_after_the_time_limit(tmp_path, monkeypatch):
    import d2lgpu.distributed as distributed

    # What torchrun prints when it is stopped (recorded from a real run), without a launch.
    output = (
        "2 process(es), training on cpu\n"
        "epoch 1: last batch loss 1.2345\n"
        "W1122 10:00:00 torch/distributed/elastic/agent/server/api.py:704] Received 15 death signal\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/lib/python3.11/site-packages/torch/distributed/run.py", line 9, in main\n'
        "torch.distributed.elastic.multiprocessing.api.SignalException: Process 7 got signal: 15\n"
    )

    def hanging_launch(script, *args, timeout_s=None, **kwargs):
        result = distributed.LaunchResult(-15, output, timeout_s)
        raise distributed.LaunchError("timed out", result, timed_out=True)

    monkeypatch.setattr(distributed, "launch", hanging_launch)
    result = assert_fails(
        "05.ddp", ddp_variant(tmp_path, "hangs"), "torchrun was stopped after", "epoch 1"
    )
    assert "SignalException" not in result.hint and "elastic" not in result.hint
    # the launch's own limit stays inside the check's, leaving time to report
    limited = check("05.ddp", ddp_variant(tmp_path, "hangs2"), quiet=True, time_limit_s=60)
    seconds = float(re.search(r"stopped after (\d+) s", limited.hint).group(1))
    assert 20 <= seconds <= 35


def test_ddp_a_rank_killed_by_a_signal_is_retried_once_then_reported(tmp_path, monkeypatch):
    import d2lgpu.distributed as distributed

    output = (
        "epoch 3: last batch loss 1.0509\n"
        "terminate called without an active exception\n"
        "torch.distributed.elastic.multiprocessing.errors.ChildFailedError:\n"
        "  exitcode  : -6 (pid: 7235)  (SIGABRT)\n"
    )
    launches = []

    def aborting_launch(script, *args, **kwargs):
        launches.append(script)
        raise distributed.LaunchError("torchrun failed", distributed.LaunchResult(1, output, 9.0))

    monkeypatch.setattr(distributed, "launch", aborting_launch)
    script = ddp_variant(tmp_path, "aborts")
    result = assert_fails("05.ddp", script, "failed twice", "SIGABRT", "dist.barrier()")
    assert len(launches) == 2
    assert "ChildFailedError:" in result.hint  # the tail is shown as it is


# ---------------------------------------------------------------------------------------------
# The checkers' CUDA branches on a real GPU (on a CPU, the tests above run them with fakes).

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")


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


@pytest.mark.cuda
@requires_cuda
def test_on_a_gpu_frobenius_amp_and_device_bug_run_on_it():
    assert_passes("02.frobenius", (log_norms_per_step, log_norms_at_end))
    assert_fails("02.frobenius", (log_norms_per_step, log_norms_per_step), "1000 x item()")
    assert_passes("04.amp", make_amp_loop())
    assert_passes("03.device_bug", train_step)
    assert_passes("03.parameters", PARAMETERS)
