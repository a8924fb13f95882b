# expect: pass
# hint:
import torch
def per_step(A, steps):
    n = A.shape[-1]
    X = torch.eye(n, dtype=A.dtype, device=A.device)
    logged = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X)  # Frobenius by default for a matrix
        logged.append(norm.item())
        X = X / norm
    return logged
def at_end(A, steps):
    n = A.shape[-1]
    X = torch.eye(n, dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X)
        log[i : i + 1] = norm
        X = X / norm
    return log.cpu().tolist()
answer = (per_step, at_end)
