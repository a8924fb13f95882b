# expect: fail at-end version preallocates its log on the host (torch.empty(steps), no device=): each log[i] = norm is a device-to-host copy, a sync every step on a GPU
# hint: device|empty|prealloc|buffer|host|cpu|copy|transfer
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype)  # the log
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
