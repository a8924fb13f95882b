# expect: pass
# hint: 
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(float(norm))
        X = X / norm
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = A.new_empty(steps)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i].copy_(norm)
        X = X / norm
    return log.tolist()
answer = (per_step, at_end)
