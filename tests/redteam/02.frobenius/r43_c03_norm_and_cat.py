# expect: pass Uses X.norm() (Frobenius for a matrix) and divides by the Python float in the per-step version; the at-end version keeps 1-element tensors, joins them with torch.cat and transfers once with .cpu().tolist() (two reads).
# hint: 
import torch


def log_norms_per_step(A, steps):
    if steps < 1:
        raise ValueError("steps must be 1 or more")
    n = A.shape[-1]
    X = torch.ones(n, dtype=A.dtype, device=A.device).diag()  # the identity
    out = []
    step = 0
    while step < steps:
        X = A @ X
        value = X.norm().item()  # Frobenius norm, read as it is logged
        out.append(value)
        X = X / value
        step += 1
    return out


def log_norms_at_end(A, steps):
    if steps < 1:
        raise ValueError("steps must be 1 or more")
    n = A.shape[-1]
    X = torch.ones(n, dtype=A.dtype, device=A.device).diag()
    pieces = []
    for _ in range(steps):
        X = A @ X
        norm = X.norm()
        pieces.append(norm.reshape(1))
        X = X / norm
    return torch.cat(pieces).cpu().tolist()


answer = (log_norms_per_step, log_norms_at_end)
