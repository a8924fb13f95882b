# expect: fail per-step version calls the at-end version and "logs" the floats it returns: one transfer in all, not one per step
# hint: one (read|transfer)|per step|each step|every step|at the end|at-end|reuse|calls
import torch


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    log = []
    for value in log_norms_at_end(A, steps):
        log.append(float(value))  # each norm logged as a Python float
    return log


answer = (log_norms_per_step, log_norms_at_end)
