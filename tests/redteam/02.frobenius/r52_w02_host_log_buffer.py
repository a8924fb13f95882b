# expect: fail at-end version preallocates its log on the host (torch.empty(steps) with no device=): each store is a device-to-host copy
# hint: device|host|cpu|transfer|read|sync
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype)  # forgot device=A.device: the log lives on the host
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm  # a copy from the device into host memory, every step
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
