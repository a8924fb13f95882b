# expect: fail the per-step version calls .item() once per norm, but all after the loop, not as each norm is logged
# hint: as (you|it is) log|as it is logged|each step|every step|inside the loop|in the loop|during the loop|after the loop|interleav|at the end
# Wrong: the read count is right (one .item() per step), but the reads come after the loop,
# so nothing waits step by step: this is the at-end version with `steps` transfers.
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return [norm.item() for norm in log]  # each norm transferred with .item()


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
