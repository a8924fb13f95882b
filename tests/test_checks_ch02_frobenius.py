"""The checker of 02.frobenius: reference answers pass, realistic wrong answers fail with the right hint.

The reference answers here are written independently of the solution notebooks
(whose stored PASS outputs nbval compares), so a checker is tested against two
solutions. Every wrong answer is one a learner is likely to write.
"""

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

    assert_fails("02.frobenius", (norm_first, log_norms_at_end), "the norm after step 1", "||A||_F")


def test_frobenius_returning_a_tensor_is_told_to_return_floats():
    def tensor_at_end(A, steps):
        return torch.tensor(log_norms_at_end(A, steps))

    assert_fails("02.frobenius", (log_norms_per_step, tensor_at_end), "list of Python floats")


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
