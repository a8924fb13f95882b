# expect: fail at-end log buffer made with torch.arange is int64: the norms are truncated to integers
# hint: dtype|int64|integer|truncat|round
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
    log = torch.arange(steps, device=A.device)  # one slot per step, on the device
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return [float(v) for v in log.tolist()]


answer = (log_norms_per_step, log_norms_at_end)
