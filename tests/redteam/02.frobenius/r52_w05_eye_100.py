# expect: fail starts from torch.eye(100), the exercise's size hard-coded: wrong for any other n (the GPU cell uses 1024)
# hint: size|shape|100|1024|\bn\b|identity
import torch


def _start(A):
    return torch.eye(100, dtype=A.dtype, device=A.device)  # "a 100 x 100 product"


def log_norms_per_step(A, steps):
    X = _start(A)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = _start(A)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
