# expect: fail the at-end version still calls .item() every step
# hint: at_end|at the end|once|host read|item|3
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
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm.item()
        X = X / norm
    return log.tolist()
answer = (per_step, at_end)
