# expect: fail rounds each logged norm to 3 decimals: fine for norms near 10, off by far more than 1e-3 relative for small norms (a scaled-down A)
# hint: round|decimal|relative|1e-3|reference|precision|small|differ
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(round(norm.item(), 3))  # a tidy log line
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return [round(v, 3) for v in torch.stack(log).tolist()]


answer = (log_norms_per_step, log_norms_at_end)
