# expect: fail the at-end version divides by norm.item(): a hidden host read every step
# hint: item|host read|each step|every step|at_end|at the end|3
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
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm.item()  # "a Python scalar is cheaper to divide by"
    return torch.stack(log).tolist()
answer = (per_step, at_end)
