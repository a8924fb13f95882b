# expect: fail the per-step version logs 0-d tensors, never transferred: returns tensors, not Python floats
# hint: float|tensor|item|host read|transfer
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return log
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
