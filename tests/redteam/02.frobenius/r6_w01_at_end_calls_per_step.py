# expect: fail the at-end version simply calls the per-step version: a host read every step
# hint: at_end|at the end|once|host read|item|3|every step|each step
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out
def at_end(A, steps):
    return per_step(A, steps)
answer = (per_step, at_end)
