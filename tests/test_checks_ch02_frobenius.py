"""The checker of 02.frobenius: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

import math

import pytest
import torch
from grading_helpers import assert_fails, assert_passes

import d2lgpu

STEPS = 1000  # the checker's number of steps


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
    result = assert_passes("02.frobenius", (log_norms_per_step, log_norms_at_end))
    assert result.passed == [
        "both versions return 1000 finite norms as Python floats, and make every tensor on "
        "A's device (checked on a pretend GPU when there is no real one)",
        "they agree with each other and with the reference norms (rtol 1e-3)",
        "the per-step version reads every norm on the host as it logs it, inside the loop "
        "(>= 1 host read per step, each before the next step's product)",
        "the at-the-end version makes at most 3 host reads, for 10 steps as for 1000 (counted "
        "with a TorchFunctionMode; on CUDA also with torch.cuda.set_sync_debug_mode)",
    ]


PAIR_HINT = (
    "pass both functions as a pair: check('02.frobenius', (log_norms_per_step, log_norms_at_end))"
)


def test_frobenius_wants_both_functions():
    assert_fails("02.frobenius", log_norms_per_step, "pass both functions as a pair")
    for answer in (
        {log_norms_per_step, log_norms_at_end},  # a set: Python keeps no order
        (log_norms_per_step, log_norms_at_end, log_norms_at_end),
        (log_norms_per_step, "log_norms_at_end"),
    ):
        assert assert_fails("02.frobenius", answer).hint == PAIR_HINT


def test_frobenius_rejects_an_overflowing_product():
    def squaring(A, steps):
        norms = []
        for _ in range(steps):
            A = A @ A
            norms.append(torch.linalg.matrix_norm(A).item())
        return norms

    result = assert_fails("02.frobenius", (squaring, log_norms_at_end))
    assert result.hint == (
        "log_norms_per_step: the norm after step 5 is inf: the product overflowed the dtype it "
        "was computed in (float32 above 3.4e38; float16, if X or A was cast with .half(), above "
        "65504). Divide X by its norm after logging it (X = X / norm), so every step starts "
        "from a matrix of norm 1, and keep X in A's dtype"
    )


def test_frobenius_rejects_an_unnormalized_product():
    def unnormalized(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X))
        return torch.stack(norms).tolist()

    result = assert_fails("02.frobenius", (log_norms_per_step, unnormalized))
    assert result.hint.startswith("log_norms_at_end: the norm after step 19 is inf: "), result.hint


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


def test_frobenius_names_tensors_made_on_cuda_0_for_an_a_on_cuda_1():
    # the 48 x 48 A is on a second (pretend) GPU: device="cuda" is cuda:0, not A's device
    def at_end(A, steps):
        X, log = torch.eye(A.shape[0], device="cuda"), torch.empty(steps, device="cuda")
        for i in range(steps):
            X = A @ X
            log[i] = torch.linalg.matrix_norm(X)
            X = X / log[i]
        return log.tolist()

    if torch.cuda.is_available() and torch.cuda.device_count() < 2:
        pytest.skip("one GPU: every A is on cuda:0, where device='cuda' is A's device")
    result = assert_fails("02.frobenius", _logged_with(at_end=at_end))
    assert result.hint == (
        "log_norms_at_end: matmul got tensors on cuda:1 and on cuda:0 while A is on the GPU; a "
        "GPU refuses to mix them. Make every tensor on A's device: torch.eye(n, "
        "device=A.device), torch.empty(steps, device=A.device), or x.to(A.device)"
    )


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

    assert_fails(
        "02.frobenius",
        (log_norms_per_step, buffer_without_device),
        "__setitem__ of a device value into a CPU tensor",
        "torch.empty(...) without device=",
    )
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

    result = assert_fails(
        "02.frobenius",
        (lazy, log_norms_at_end),
        "log_norms_per_step read device data on the host 1 times for 1000 steps",
        "norm.item()",
        "the version that reads every step",
    )
    # At the exercise's 100 x 100 the per-step version is no slower on an H100 (the solution's
    # GPU cell): the hint names it by what it does, never as the slow one.
    assert "slow" not in result.hint.lower()


def test_frobenius_rejects_the_norm_taken_before_the_product():
    def norm_first(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm.item())
            X = A @ (X / norm)
        return norms

    result = assert_fails("02.frobenius", (norm_first, log_norms_at_end))
    assert result.hint == (
        "log_norms_per_step: the norm after step 1 is 10, the reference 99.3016 (step 1 is "
        "||A||_F = 99.3016). Start from X = identity; each step X = A @ X, log ||X||_F, then "
        "X = X / ||X||_F"
    ), result.hint


# ---------------------------------------------------------------------------------------------
# On a real GPU (on a CPU, the tests above run the CUDA branches with fakes).

requires_cuda = pytest.mark.skipif(not torch.cuda.is_available(), reason="requires CUDA")


@pytest.mark.cuda
@requires_cuda
def test_on_a_gpu_frobenius_runs_on_it():
    assert_passes("02.frobenius", (log_norms_per_step, log_norms_at_end))
    assert_fails("02.frobenius", (log_norms_per_step, log_norms_per_step), "1000 x item()")


def test_frobenius_per_step_reads_must_happen_inside_the_loop():
    # As many reads as steps, but all after the last product: the GPU never waited per step.
    def items_after_the_loop(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm)
            X = X / norm
        return [n.item() for n in norms]

    def floats_of_a_device_log(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        log = torch.empty(steps, device=A.device)
        for i in range(steps):
            X = torch.mm(A, X)
            log[i] = torch.linalg.matrix_norm(X)
            X = X / log[i]
        return [float(log[i]) for i in range(steps)]

    for wrong in (items_after_the_loop, floats_of_a_device_log):
        result = assert_fails(
            "02.frobenius", (wrong, log_norms_at_end), "after the loop", "inside the loop"
        )
        assert f"read the norms on the host {STEPS} times" in result.hint, result.hint


def test_frobenius_per_step_styles_that_read_as_they_go_pass():
    def out_argument(A, steps):  # each norm written with out=, read before the next product
        X = torch.eye(A.shape[0], device=A.device)
        log = torch.empty(steps, device=A.device)
        norms = []
        for i in range(steps):
            X = torch.matmul(A, X)
            torch.linalg.matrix_norm(X, out=log[i])
            norms.append(log[i].item())
            X /= log[i]
        return norms

    class Logger:  # a callable object, reading after normalizing
        def __call__(self, A, steps):
            X, norms = torch.eye(A.shape[0], device=A.device), []
            for _ in range(steps):
                X = X.__rmatmul__(A)
                norm = X.norm()
                X = X / norm
                norms.append(float(norm))
            return norms

    assert_passes("02.frobenius", (out_argument, log_norms_at_end))
    assert_passes("02.frobenius", (Logger(), log_norms_at_end))


def test_frobenius_calls_both_versions_with_another_number_of_steps():
    def thousand_written_in(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(1000):  # not steps
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm.item())
            X = X / norm
        return norms

    def buffer_of_a_thousand(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        log = torch.empty(1000, device=A.device)  # sized for the exercise's 1000
        for i in range(steps):
            X = A @ X
            log[i] = torch.linalg.matrix_norm(X)
            X = X / log[i]
        return log.tolist()

    assert_fails(
        "02.frobenius", (thousand_written_in, log_norms_at_end), "(A, 10) returned 1000 norms"
    )
    assert_fails(
        "02.frobenius", (log_norms_per_step, buffer_of_a_thousand), "(A, 10) returned 1000 norms"
    )


# ---------------------------------------------------------------------------------------------
# Each hint in full, and the answers that tell the checker's rules from their neighbours.


def _loop(A, steps, *, keep=lambda norm: norm.item(), dtype=None):
    """The exercise's loop, logging ``keep(norm)``; products in ``dtype`` if given."""
    A = A if dtype is None else A.to(dtype)
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X.float())
        norms.append(keep(norm))
        # Divided in float32: on a GPU a float16 X / norm casts the norm to float16 first, and
        # a norm above 65504 is then inf (the H200 of 2026-12-04: nan at step 3 for A = 1e4 *
        # randn); the CPU divides in float32 either way.
        X = (X.float() / norm).to(A.dtype)
    return norms


def _kept(A, steps):
    return _loop(A, steps, keep=lambda norm: norm)


def test_frobenius_reference_keeps_a_dtype_and_a_device():
    from d2lgpu.checks._pretend import watching
    from d2lgpu.checks.ch02_frobenius import frobenius_reference  # imported here, in any order

    A = torch.randn(4, 4, dtype=torch.float64, generator=torch.Generator().manual_seed(0))
    with watching(True) as watch:
        norms = frobenius_reference(watch.put(A), 2)
    assert not watch.mixed, watch.mixed
    first = torch.linalg.matrix_norm(A)
    second = torch.linalg.matrix_norm(A @ (A / first))
    assert norms == [first.item(), second.item()], (norms, first, second)


def test_frobenius_hints_in_full_for_what_is_returned():
    def cat_at_end(A, steps):  # 0-d tensors cannot be concatenated: a crash, reported as one
        return torch.cat(_kept(A, steps)).tolist()

    def numpy_at_end(A, steps):
        return torch.stack(_kept(A, steps)).cpu().numpy()

    def list_of_numpy(A, steps):
        return list(numpy_at_end(A, steps))

    def list_of_tensors(A, steps):
        return list(torch.stack(_kept(A, steps)).cpu())

    def tensor_at_end(A, steps):
        return torch.stack(_kept(A, steps))

    # Graded first, where the checker stops before it runs the other version.
    result = assert_fails("02.frobenius", (cat_at_end, log_norms_at_end))
    assert result.hint.startswith(
        "your code raised RuntimeError: zero-dimensional tensor (at position 0) cannot be "
        "concatenated (in your function cat_at_end"
    ), result.hint
    for wrong, hint in (
        (numpy_at_end, "log_norms_per_step(A, 1000) returned a ndarray: return a list of floats"),
        (
            list_of_numpy,
            "log_norms_per_step: norm 0 is a float32 (NumPy's, from a NumPy array: its "
            ".tolist() gives floats), not a Python float: return a list of floats "
            "(tensor.tolist(), or .item() of each)",
        ),
        (
            list_of_tensors,
            "log_norms_per_step: norm 0 is still a tensor: transfer the norms to the host as "
            "Python floats",
        ),
    ):
        assert assert_fails("02.frobenius", (wrong, log_norms_at_end)).hint == hint
    result = assert_fails("02.frobenius", (log_norms_per_step, tensor_at_end))
    assert result.hint == (
        "log_norms_at_end returned a tensor: return the norms as a list of Python floats "
        "(tensor.tolist() makes one)"
    )


def test_frobenius_hints_in_full_for_where_the_work_runs():
    def on_the_host(A, steps):
        return _loop(A.cpu(), steps)

    def mixes(A, steps):
        X = torch.eye(A.shape[0])  # made on the CPU
        norms = []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X).item())
            X = X / norms[-1]
        return norms

    memo = {}

    def cached(A, steps):  # the second call with the same A computes nothing
        if (id(A), steps) not in memo:
            memo[id(A), steps] = log_norms_per_step(A, steps)
        return memo[id(A), steps]

    result = assert_fails("02.frobenius", (on_the_host, log_norms_at_end))
    assert result.hint == (
        "log_norms_per_step(A, 1000): 1000 of its 1000 products ran on the CPU, not on A's "
        "device: A.cpu() (or .to('cpu'), or X made on the CPU) copies the work to the host. "
        "Keep A and X on A's device (torch.eye(n, device=A.device)) and transfer only the norms"
    )
    result = assert_fails("02.frobenius", (mixes, log_norms_at_end))
    assert result.hint.startswith("log_norms_per_step: ")
    assert result.hint.endswith(
        " while A is on the GPU; a GPU refuses to mix them. Make every tensor on A's device: "
        "torch.eye(n, device=A.device), torch.empty(steps, device=A.device), or x.to(A.device)"
    ), result.hint
    result = assert_fails("02.frobenius", (cached, cached))
    assert result.hint == (
        "log_norms_at_end(A, 1000) made 0 matrix products for 1000 steps: each call must do its "
        "own work, X = A @ X every step. Norms cached from the other version or from an earlier "
        "call (a dict keyed by A, functools.cache) measure nothing"
    )


def test_frobenius_hints_in_full_for_wrong_norms():
    def in_bfloat16(A, steps):  # too coarse: 0.6% off the reference, the bound is 0.1%
        return torch.tensor(_loop(A, steps, dtype=torch.bfloat16)).tolist()

    result = assert_fails("02.frobenius", (log_norms_per_step, in_bfloat16))
    assert result.hint.startswith("log_norms_at_end: the norm after step "), result.hint
    assert result.hint.endswith(
        " (step 1 is ||A||_F = 99.3016). Start from X = identity; each step X = A @ X, "
        "log ||X||_F, then X = X / ||X||_F"
    ), result.hint


def test_frobenius_products_that_round_like_tf32_pass():
    # On a GPU, float32 products may run in TF32 (10 bits of mantissa): the norms are then
    # about 1e-4 off. float16 products round the same way here; the bound is rtol 1e-3.
    def in_float16(A, steps):
        return _loop(A, steps, dtype=torch.float16)

    def multi_dot(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = torch.linalg.multi_dot([A, X])
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm.item())
            X = X / norm
        return norms

    assert_passes("02.frobenius", (in_float16, log_norms_at_end))
    assert_passes("02.frobenius", (multi_dot, log_norms_at_end))


def test_frobenius_at_end_may_read_three_times_not_four():
    def three_reads(A, steps):
        log = torch.stack(_kept(A, steps))
        if not torch.isfinite(log).all():  # one read
            raise ValueError("the product overflowed")
        last = float(log[-1])  # two
        assert last > 0, f"a norm is positive, got {last}"
        return log.tolist()  # three

    def four_reads(A, steps):
        first = float(torch.linalg.matrix_norm(A))  # one more
        assert first > 0, f"a norm is positive, got {first}"
        return three_reads(A, steps)

    def checks_each_step(A, steps):
        norms = []
        for norm in _kept(A, steps):
            if not torch.isfinite(norm):  # a read each step
                raise ValueError("the product overflowed")
            norms.append(norm)
        return torch.stack(norms).tolist()

    assert_passes("02.frobenius", (log_norms_per_step, three_reads))
    result = assert_fails("02.frobenius", (log_norms_per_step, four_reads))
    assert result.hint == (
        "log_norms_at_end read device data on the host 4 times for 1000 steps (2 x __float__, "
        "1 x __bool__, 1 x tolist()); each read waits for the GPU. Keep the norms on the "
        "device (torch.stack a list of 0-d tensors, or write into torch.empty(steps, "
        "device=A.device)) and transfer them once at the end with .tolist()"
    ), result.hint
    result = assert_fails("02.frobenius", (log_norms_per_step, checks_each_step))
    assert result.hint == (
        "log_norms_at_end read device data on the host 1001 times for 1000 steps (1000 x "
        "__bool__, 1 x tolist()); each read waits for the GPU. Keep the norms on the "
        "device (torch.stack a list of 0-d tensors, or write into torch.empty(steps, "
        "device=A.device)) and transfer them once at the end with .tolist()"
    ), result.hint


def test_frobenius_counts_cuda_synchronizations(monkeypatch):
    # On a CPU the checker's set_sync_debug_mode count is empty; here a fake one sees them.
    from contextlib import contextmanager

    import d2lgpu.checks.ch02_frobenius as frobenius

    def seen(n):
        @contextmanager
        def counter(device):
            yield [f"sync {i}" for i in range(n)]

        return counter

    monkeypatch.setattr(frobenius, "_cuda_sync_counter", seen(3))
    assert_passes("02.frobenius", (log_norms_per_step, log_norms_at_end))
    monkeypatch.setattr(frobenius, "_cuda_sync_counter", seen(4))
    result = assert_fails("02.frobenius", (log_norms_per_step, log_norms_at_end))
    assert result.hint == (
        "torch.cuda.set_sync_debug_mode saw 4 synchronizations in log_norms_at_end for 1000 "
        "steps (first: sync 0): something in the loop waits for the GPU; keep everything on "
        "the device until the end"
    )


def test_the_sync_count_leaves_out_the_modes_own_warning(monkeypatch):
    # On the H200 of 2026-12-04 a right answer's 3 reads counted 4: the first
    # set_sync_debug_mode of a process warns, once, that the mode is a prototype, and its
    # text has "synchronizing" in it. Only CUDA's per-call warning counts.
    import warnings

    from d2lgpu.checks._pretend import cuda_sync_counter

    modes = []

    def set_mode(mode):
        if not modes:
            warnings.warn(
                "Synchronization debug mode is a prototype feature and does not yet detect all "
                "synchronizing operations",
                stacklevel=2,
            )
        modes.append(mode)

    monkeypatch.setattr(torch.cuda, "get_sync_debug_mode", lambda: 0)
    monkeypatch.setattr(torch.cuda, "set_sync_debug_mode", set_mode)
    with cuda_sync_counter(torch.device("cuda")) as syncs:
        for _ in range(3):
            warnings.warn("called a synchronizing CUDA operation", stacklevel=2)
    assert syncs == ["called a synchronizing CUDA operation"] * 3 and modes == ["warn", 0]
    with pytest.warns(UserWarning), cuda_sync_counter(torch.device("cpu")) as syncs:
        warnings.warn("called a synchronizing CUDA operation", stacklevel=2)
    assert syncs == [] and modes == ["warn", 0]  # a CPU is not watched


def test_frobenius_names_the_first_step_whose_norm_is_off():
    # The squared norm is off from step 1 (99.3^2 against 99.3); the worst step, later, made
    # the hint point at a drift.
    def squared(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norm = (X * X).sum()
            norms.append(norm.item())
            X = X / norm
        return norms

    result = assert_fails("02.frobenius", (squared, log_norms_at_end))
    assert result.hint.startswith("log_norms_per_step: the norm after step 1 is 9860.8"), (
        result.hint
    )


def test_frobenius_names_a_changed_a():
    # Right values once (the log is scaled back), but the caller's A is divided in place.
    def scales_a(A, steps):
        scale = torch.linalg.matrix_norm(A)
        A.div_(scale)
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm * scale)
            X = X / norm
        return torch.stack(norms).tolist()

    hint = assert_fails("02.frobenius", (log_norms_per_step, scales_a)).hint
    assert hint == (
        "log_norms_at_end(A, 1000) changed A in place (an in-place operation on A: "
        "A.div_(...), A /= ..., A.copy_(...)), so the caller's matrix, and every later call on "
        "it, is not what it was. Leave A as it is: X = A @ X makes a new X, and X = X / norm "
        "normalizes X, not A"
    )


@pytest.mark.parametrize(
    ("norm", "named"),
    [
        (
            lambda X: torch.linalg.matrix_norm(X, 2),
            "X's spectral norm (ord=2, its largest singular",
        ),
        (lambda X: torch.linalg.matrix_norm(X, "nuc"), "X's nuclear norm (ord='nuc')"),
        (lambda X: (X * X).sum(), "X's Frobenius norm squared"),
        (lambda X: X.abs().amax(), "X's largest entry in absolute value"),
        (lambda X: X.abs().sum(), "the sum of X's entries in absolute value"),
    ],
    ids=["spectral", "nuclear", "squared", "max", "l1"],
)
def test_frobenius_another_norm_is_named_with_the_fix(norm, named):
    def other_norm(A, steps):
        X, norms = torch.eye(A.shape[0], dtype=A.dtype, device=A.device), []
        for _ in range(steps):
            X = A @ X
            value = norm(X)
            norms.append(value.item())
            X = X / value
        return norms

    hint = assert_fails("02.frobenius", (other_norm, log_norms_at_end)).hint
    assert hint.startswith("log_norms_per_step: the norm after step 1 is "), hint
    assert (
        f"That is {named}" in hint
        and "the Frobenius norm is torch.linalg.matrix_norm(X) (ord 'fro', the default)" in hint
    ), hint


def test_frobenius_a_norm_off_later_names_no_other_norm():
    def drifts(A, steps):  # right at step 1, then off: no norm of A explains it
        return [n * (1.0 if i == 0 else 1.5) for i, n in enumerate(log_norms_at_end(A, steps))]

    hint = assert_fails("02.frobenius", (drifts, log_norms_at_end)).hint
    assert (
        hint.startswith("log_norms_per_step: the norm after step 2 is ") and "That is" not in hint
    )


def test_frobenius_names_norms_kept_between_calls_whole_numbers_and_the_largest_entry():
    def kept(A, steps, norms=[]):  # noqa: B006 (the mistake under test)
        norms.extend(log_norms_per_step(A, steps))
        return norms

    kept(torch.eye(3), 2)
    assert_fails(
        "02.frobenius",
        (kept, log_norms_at_end),
        "log_norms_per_step(A, 1000) returned 1002 norms: log one norm per step (more than "
        "steps: does a list kept between calls, a default argument norms=[] or a global, still "
        "hold the norms of earlier calls? Make a new list in every call)",
    )
    result = assert_fails(
        "02.frobenius",
        (log_norms_per_step, lambda A, steps: log_norms_at_end(A, steps)[:-1]),
        "log_norms_at_end(A, 1000) returned 999 norms: log one norm per step",
    )
    assert "kept between calls" not in result.hint

    def whole_numbers(A, steps):
        return [float(int(n)) for n in log_norms_at_end(A, steps)]

    assert_fails(
        "02.frobenius",
        (log_norms_per_step, whole_numbers),
        "log_norms_at_end: every norm is a whole number (the norm after step 1 is 99, the "
        "reference 99.3016): the norms went through an integer tensor (torch.arange, "
        "dtype=torch.long). Log them in a float tensor, torch.empty(steps, device=A.device)",
    )

    def by_largest(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X).item())
            X = X / X.abs().max()
        return norms

    assert_fails(
        "02.frobenius",
        (by_largest, log_norms_at_end),
        "log_norms_per_step: the norm after step 2 is",
        "X was divided by its largest entry, not by the norm you logged. Divide by the "
        "Frobenius norm, X = X / ||X||_F",
    )


@pytest.mark.parametrize(
    "product",
    [
        lambda A, X: torch.einsum("ij,jk->ik", A, X),
        lambda A, X: torch.tensordot(A, X, dims=1),
        lambda A, X: torch.linalg.matmul(A, X),
        lambda A, X: torch.nn.functional.linear(A, X.T),
    ],
    ids=["einsum", "tensordot", "linalg.matmul", "linear"],
)
def test_frobenius_products_written_another_way_are_counted(product):
    def per_step(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = product(A, X)
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm.item())
            X = X / norm
        return norms

    def at_end(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = product(A, X)
            norms.append(torch.linalg.matrix_norm(X))
            X = X / norms[-1]
        return torch.stack(norms).tolist()

    assert_passes("02.frobenius", (per_step, at_end))


def test_frobenius_norms_rounded_to_a_lower_precision_are_named():
    def at_end_bf16(A, steps):
        X, log = torch.eye(A.shape[0], device=A.device), torch.empty(steps, dtype=torch.bfloat16)
        for i in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log[i] = norm
            X = X / norm
        return log.float().tolist()

    hint = assert_fails("02.frobenius", (log_norms_per_step, at_end_bf16)).hint
    assert (
        "Every norm is the reference rounded to torch.bfloat16: the norms (or X) were kept in "
        "torch.bfloat16, which holds about 3 significant digits" in hint
    )


def _logged_with(per_step=log_norms_per_step, at_end=log_norms_at_end):
    return per_step, at_end


def test_frobenius_one_step_returns_a_list_of_one_norm():
    def squeezed(A, steps):  # (steps, 1) squeezed: a bare float for one step
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X, keepdim=True)
            norms.append(norm)
            X = X / norm
        return torch.cat(norms).squeeze().tolist()

    assert_fails(
        "02.frobenius",
        _logged_with(at_end=squeezed),
        "log_norms_at_end(A, 1) returned a float: return a list of floats, one for the one step "
        "(a 0-d tensor's .tolist() is a bare float: squeeze() of a (1, 1) log makes one)",
    )


def test_frobenius_names_a_logged_norm_changed_in_place_to_its_reciprocal():
    def reciprocal(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm)
            X = X * norm.reciprocal_()
        return torch.stack(norms).tolist()

    assert_fails(
        "02.frobenius",
        _logged_with(at_end=reciprocal),
        "log_norms_at_end: every norm is 1 / the reference (the norm after step 1 is",
    )


def test_frobenius_names_a_matmul_precision_left_changed_and_puts_it_back():
    before = torch.get_float32_matmul_precision()

    def medium(A, steps):
        torch.set_float32_matmul_precision("medium")
        return log_norms_per_step(A, steps)

    assert_fails(
        "02.frobenius",
        _logged_with(per_step=medium),
        "log_norms_per_step leaves a process-wide default of torch changed "
        "(torch.set_float32_matmul_precision('medium'))",
    )
    assert torch.get_float32_matmul_precision() == before


def test_frobenius_names_a_per_step_version_that_moves_the_whole_log_every_step():
    def whole_log(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), torch.empty(steps, device=A.device)
        out = []
        for i in range(steps):
            X = A @ X
            norms[i] = torch.linalg.matrix_norm(X)
            out = norms[: i + 1].tolist()  # every norm so far, each step
            X = X / norms[i]
        return out

    assert_fails(
        "02.frobenius",
        _logged_with(per_step=whole_log),
        "log_norms_per_step moved 500500 values to the host for its 1000 norms",
    )


@pytest.mark.filterwarnings("ignore:CUDA is not available")
def test_frobenius_measures_a_cuda_autocast_the_pretend_gpu_switched_off():
    def under(dtype, device_type="cuda"):
        def per_step(A, steps):
            X, norms = torch.eye(A.shape[0], device=A.device), []
            for _ in range(steps):
                with torch.autocast(device_type=device_type, dtype=dtype):
                    X = A @ X
                norm = torch.linalg.matrix_norm(X.float())
                norms.append(norm.item())
                X = X.float() / norm
            return norms

        return per_step

    result = assert_fails("02.frobenius", _logged_with(per_step=under(torch.bfloat16)))
    assert result.hint.startswith(
        "log_norms_per_step runs its products under torch.autocast('cuda', dtype=torch.bfloat16)"
        + (
            ": they ran in torch.bfloat16, and on this GPU the norms of this A are off by more "
            "than the 1e-3 of the reference asked"
            if torch.cuda.is_available()
            else ": on a GPU they then run in torch.bfloat16, and with the CPU's autocast in that "
            "dtype the norms of this A are off by more than the 1e-3 of the reference asked"
        )
    ), result.hint
    assert_passes("02.frobenius", _logged_with(per_step=under(torch.float16)))  # within 1e-3
    cpu_autocast = _logged_with(per_step=under(torch.bfloat16, "cpu"))
    if torch.cuda.is_available():  # the CPU's autocast leaves a GPU's products alone
        assert_passes("02.frobenius", cpu_autocast)
        return
    # the CPU's own autocast is not switched off: it lowers the pretend GPU's products, whose
    # norms are then compared as they are, and no CUDA autocast is named
    result = assert_fails("02.frobenius", cpu_autocast)
    assert result.hint.startswith("log_norms_per_step: the norm after step "), result.hint
    assert "autocast" not in result.hint


def test_a_cuda_autocast_is_named_from_the_norms_a_real_gpu_gave():
    from d2lgpu.checks._ch02_norms import autocast_hint

    A = torch.randn(4, 4, generator=torch.Generator().manual_seed(0))
    want = torch.tensor([2.0, 1.0, 1.0], dtype=torch.float64)
    asked = [("cpu", torch.bfloat16), ("cuda", torch.bfloat16)]
    off = torch.tensor([2.0, 1.0, 1.0021], dtype=torch.float64)
    assert autocast_hint("log_norms_at_end", A, 3, asked, want, off) == (
        "log_norms_at_end runs its products under torch.autocast('cuda', dtype=torch.bfloat16): "
        "they ran in torch.bfloat16, and on this GPU the norms of this A are off by more than "
        "the 1e-3 of the reference asked. Keep the products in A's float32 (a GPU's TF32 stays "
        "within 1e-3)"
    )
    within = torch.tensor([2.0, 1.0, 1.0009], dtype=torch.float64)
    assert autocast_hint("log_norms_at_end", A, 3, asked, want, within) is None
    assert autocast_hint("log_norms_at_end", A, 3, asked[:1], want, off) is None  # no CUDA one
    assert autocast_hint("f", A, 3, [("cuda", torch.float32)], want, off) is None


def test_a_product_written_into_its_own_operand_is_named_whatever_the_blas_gives():
    # round 27's clean-clone run: torch.mm(A, X, out=X) gave zeros on one machine and
    # garbage on another (its matrix library); the call itself is named, not its values
    def at_end(A, steps):
        X, log = torch.eye(A.shape[0], device=A.device), torch.empty(steps, device=A.device)
        for i in range(steps):
            torch.mm(A, X, out=X)
            log[i] = torch.linalg.matrix_norm(X)
            X.div_(log[i])
        return log.tolist()

    result = assert_fails("02.frobenius", _logged_with(at_end=at_end))
    assert result.hint == (
        "log_norms_at_end: torch.mm(..., out=...) writes each product into one of its own "
        "operands: it reads X while it overwrites it, and what that gives depends on the "
        "machine's matrix library (zeros, garbage, an error). Make a new X each step, X = A @ X"
    )


def _divided_by(divisor, dtype=None):
    """log_norms_at_end whose X is divided by ``divisor(norm)``, its log kept in ``dtype``."""

    def at_end(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        log = torch.empty(steps, device=A.device, dtype=dtype or A.dtype)
        for i in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log[i] = norm
            X = X / divisor(norm)
        return log.tolist()

    return at_end


def _per_step_divided_by(divisor):
    """log_norms_per_step whose X is divided by ``divisor(norm)``."""

    def per_step(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm.item())
            X = X / divisor(norm)
        return norms

    return per_step


@pytest.mark.parametrize("version", ["log_norms_per_step", "log_norms_at_end"])
def test_frobenius_names_an_epsilon_added_to_the_norm_on_a_small_a(version):
    # round 28: right where the norms are near 10, 0.3% off a step where they are near 3e-4
    answer = (
        _logged_with(per_step=_per_step_divided_by(lambda n: n + 1e-6))
        if version == "log_norms_per_step"
        else _logged_with(at_end=_divided_by(lambda n: n + 1e-6))
    )
    result = assert_fails("02.frobenius", answer)
    assert result.hint.startswith(
        f"{version} with A = 5e-05 * randn(48, 48) (float32, norms near 0.0024): the "
        "norm after step 2 is "
    )
    assert result.hint.endswith(
        "X was divided by the norm plus about 1e-06 (norm + eps, against a division by zero), "
        "not by the norm. An eps that is not small against the norms shrinks X at every step, "
        "by eps / norm. Divide by the norm itself, X = X / norm (a nonzero X has a nonzero norm)"
    )


def test_frobenius_names_a_float16_log_on_a_large_a():
    # round 28: a float16 log holds norms near 10 to 4 digits, but none above 65504
    result = assert_fails("02.frobenius", _logged_with(at_end=_divided_by(lambda n: n, torch.half)))
    assert result.hint == (
        "log_norms_at_end: the norm after step 1 is inf, the reference 491272: more than "
        "float16's largest value, 65504. The norms (or X) were kept in float16 (or a half log, "
        ".half()), which holds neither norms above 65504 nor, in full precision, below "
        "6.1e-05. Keep X and the norms in A's dtype (torch.empty(steps, device=A.device, "
        "dtype=A.dtype), or a list of the norm tensors) (A here: 10000 * randn(48, 48) "
        "(float32, norms near 4.9e+05))"
    )
    from d2lgpu.checks._ch02_norms import overflow_hint

    unit = torch.randn(32, 32, generator=torch.Generator().manual_seed(0))  # float32's own
    assert overflow_hint("f", unit, [math.inf] * 3, 0) == (
        "f: the norm after step 1 is inf: the product overflowed the dtype it was computed in "
        "(float32 above 3.4e38; float16, if X or A was cast with .half(), above 65504). Divide "
        "X by its norm after logging it (X = X / norm), so every step starts from a matrix of "
        "norm 1, and keep X in A's dtype"
    )


def test_frobenius_says_which_scale_of_a_gave_norms_off_the_reference():
    capped = _divided_by(lambda n: n.clamp(max=1e3))  # X grows where the norms pass 1000
    result = assert_fails("02.frobenius", _logged_with(at_end=capped))
    assert result.hint.startswith(
        "log_norms_at_end with A = 10000 * randn(48, 48) (float32, norms near 4.9e+05): the "
        "norm after step 2 is "
    )


def test_frobenius_names_a_norm_computed_twice_per_step():
    # round 28: once to log it, once more in the division: an extra pass over X each step
    def twice(A, steps):
        X, norms = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = A @ X
            norms.append(torch.linalg.matrix_norm(X).item())
            X = X / torch.linalg.matrix_norm(X)
        return norms

    result = assert_fails("02.frobenius", _logged_with(per_step=twice))
    assert result.hint == (
        "log_norms_per_step computed X's norm 2000 times for 1000 steps (2000 x "
        "linalg.matrix_norm): more than once per step (once to log it, again to divide by it), "
        "each a pass over all of X. Compute the norm once per step and reuse it: norm = "
        "torch.linalg.matrix_norm(X), log norm, then X = X / norm"
    )


def test_frobenius_names_a_log_grown_by_cat_every_step():
    # round 28: each cat copies the whole log so far, steps ** 2 / 2 copies in all
    def grown(A, steps):
        X, log = torch.eye(A.shape[0], device=A.device), A.new_empty(0)
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log = torch.cat([log, norm.reshape(1)])
            X = X / norm
        return log.tolist()

    result = assert_fails("02.frobenius", _logged_with(at_end=grown))
    assert result.hint == (
        "log_norms_at_end copied 500500 values with torch.cat (or stack) for 1000 norms, in 1000 "
        "calls: the log grows by a new tensor every step that copies the whole log so far (log "
        "= torch.cat([log, norm])), copies that grow with the square of the steps. Append each "
        "0-d norm to a Python list and torch.stack it once at the end, or write into a tensor "
        "made once, log = torch.empty(steps, device=A.device); log[i] = norm"
    )


def test_frobenius_names_every_product_kept_alive():
    # round 28: steps x n x n floats kept, to take every norm in one call at the end
    def kept(A, steps):
        X, products = torch.eye(A.shape[0], device=A.device), []
        for _ in range(steps):
            X = A @ X
            products.append(X)
            X = X / torch.linalg.matrix_norm(X)
        return torch.linalg.matrix_norm(torch.stack(products)).tolist()

    result = assert_fails("02.frobenius", _logged_with(at_end=kept))
    assert result.hint.startswith("log_norms_at_end held 10")
    assert result.hint.endswith(
        " matrices of A's size (100 x 100) alive at once for 1000 steps: it keeps every step's "
        "product X (a list of the products, to take their norms together at the end), steps x "
        "n x n floats, 4 GB for 1000 steps of 1024 x 1024. Keep only the norms: take each "
        "step's norm as you go, log it (a 0-d tensor), and let X go"
    )


def test_a_log_rounded_to_a_lower_precision_is_told_from_one_merely_off_by_its_values():
    from d2lgpu.checks._ch02_norms import added_to_norm, rounded_to

    want = torch.tensor([9.87654, 10.12345, 11.54321], dtype=torch.float64)
    assert "kept in torch.float16, which holds about 4 significant digits" in rounded_to(
        want.half().double(), want
    )
    assert "kept in torch.bfloat16, which holds about 3 significant digits" in rounded_to(
        want.bfloat16().double(), want
    )
    # values a bfloat16 holds, but half a unit off: not a rounding of the reference
    assert rounded_to((want + 0.5).bfloat16().double(), want) == ""
    # two norms say nothing of an epsilon read from step 2 and confirmed on steps 1 to 3
    A = torch.randn(8, 8, generator=torch.Generator().manual_seed(0))
    assert added_to_norm(A, torch.tensor([1e-3, 1e-3], dtype=torch.float64)) is None


def test_frobenius_names_a_non_blocking_copy_read_before_anything_waited_for_it():
    def copied_without_waiting(A, steps):
        X = torch.eye(A.shape[0], device=A.device)
        norms = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            norms.append(norm)
            X = X / norm
        return torch.stack(norms).to("cpu", non_blocking=True).tolist()  # read as it lands

    result = assert_fails("02.frobenius", (log_norms_per_step, copied_without_waiting))
    assert result.hint == (
        "log_norms_at_end: tolist() read the copy that .to('cpu', non_blocking=True) made "
        "before anything waited for it: on a GPU that copy runs behind the host's back, and the "
        "read can come before it lands (zeros, or what the buffer held before). Wait first "
        "(torch.cuda.synchronize(), or an event's synchronize()), or copy without non_blocking "
        "(.tolist() or .cpu() of the device tensor wait by themselves)"
    ), result.hint


def test_more_products_than_steps_are_named_and_a_restart_from_the_identity_as_such():
    from types import SimpleNamespace

    from d2lgpu.checks._ch02_clock import check_work
    from d2lgpu.checks._util import CheckFailed

    def made(n):
        return SimpleNamespace(reads_at_product=[0] * n, on_host=0)

    check_work("log_norms_at_end", 10, made(10))
    check_work("log_norms_at_end", 10, made(20))  # twice a step: left to the cost hints
    with pytest.raises(CheckFailed) as raised:
        check_work("log_norms_per_step", 10, made(55))
    assert str(raised.value) == (
        "log_norms_per_step(A, 10) made 55 matrix products for 10 steps, 1 + 2 + ... + steps: "
        "each step starts again from the identity and makes all of its products anew. Keep X "
        "from one step to the next: one product a step, X = A @ X, as the prompt asks"
    )
    with pytest.raises(CheckFailed) as raised:
        check_work("log_norms_per_step", 10, made(21))
    assert str(raised.value) == (
        "log_norms_per_step(A, 10) made 21 matrix products for 10 steps, more than two a step. "
        "Keep X from one step to the next: one product a step, X = A @ X, as the prompt asks"
    )
