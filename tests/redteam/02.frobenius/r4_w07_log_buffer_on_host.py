# expect: fail the at-end version preallocates its log on the host (torch.empty(steps) without device=): every log[i] = norm is a device-to-host copy each step
# hint: device|host|cpu|copy|transfer|each step
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
    log = torch.empty(steps, dtype=A.dtype)  # forgot device=A.device
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()
answer = (per_step, at_end)
