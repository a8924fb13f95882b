# expect: fail matrix_norm(..., out=buf) reuses one 0-d buffer and the log appends that same tensor every step: all entries equal the last norm
# hint: alias|same (tensor|buffer|object)|out=|overwrit|reference|relative|1e-3|differ|equal|last
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    buf = torch.empty((), device=A.device, dtype=A.dtype)  # no allocation per step
    log = []
    for _ in range(steps):
        X = A @ X
        torch.linalg.matrix_norm(X, out=buf)
        log.append(buf)  # the same tensor each time, overwritten next step
        X = X / buf
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
