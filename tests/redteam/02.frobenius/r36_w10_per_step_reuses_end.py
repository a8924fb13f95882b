# expect: fail per-step version just calls the at-end version: right values, but one transfer in all instead of one per step
# hint: per.step|each step|every step|item|host read|transfer|at least
import torch


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


def log_norms_per_step(A, steps):
    # same numbers; no need to write the loop twice
    return log_norms_at_end(A, steps)


answer = (log_norms_per_step, log_norms_at_end)
