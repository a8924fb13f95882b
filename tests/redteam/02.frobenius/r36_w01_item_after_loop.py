# expect: fail at-end version keeps norms on the device but reads each one with .item() after the loop: steps transfers, not one
# hint: once|single|tolist|host read|transfer|item|at most
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
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    # the loop is done, so reading now is "at the end"
    return [t.item() for t in log]


answer = (log_norms_per_step, log_norms_at_end)
