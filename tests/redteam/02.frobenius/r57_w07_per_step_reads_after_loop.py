# expect: fail the per-step version keeps the 0-d norms and calls .item() on each only after the loop: as many reads as steps, but none as the norm is logged, so it never waits per step
# hint: per step|each step|every step|as (it is )?logged|in the loop|after the loop|at the end|interleav|order|before the next
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred with .item()."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return [norm.item() for norm in log]  # one .item() per norm


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
