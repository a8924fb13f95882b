# expect: pass per-step version divides by the Python float it already read; at-end version uses linalg.norm ('fro' default) and in-place div_
# hint:
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    logged = []
    for _ in range(steps):
        X = A @ X
        value = torch.linalg.matrix_norm(X, ord="fro").item()
        logged.append(value)
        X = X / value  # the norm is on the host already: divide by the number
    return logged


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    on_device = []
    for _ in range(steps):
        X = A @ X  # a fresh tensor each step, so dividing it in place is safe
        norm = torch.linalg.norm(X)  # Frobenius for a matrix by default
        on_device.append(norm)
        X.div_(norm)
    return torch.stack(on_device).tolist() if on_device else []


answer = (log_norms_per_step, log_norms_at_end)
