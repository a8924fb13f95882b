# expect: fail the identity is made on the host (torch.eye without device=): on a GPU, A @ X mixes devices
# hint: device|host|cpu|eye|identity
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
