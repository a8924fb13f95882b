# expect: pass X @ A order (powers of A commute), float(norm) per step, a preallocated device log filled in place, under torch.no_grad
# hint:
import torch


@torch.no_grad()
def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    logged = []
    for _ in range(steps):
        X = X @ A  # A^k either way round, starting from I
        norm = torch.linalg.matrix_norm(X)
        logged.append(float(norm))  # host read as it is logged
        X = X / norm
    return logged


@torch.no_grad()
def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = X @ A
        torch.linalg.matrix_norm(X, out=log[i])
        X = X / log[i]
    return log.tolist()
answer = (log_norms_per_step, log_norms_at_end)
