# expect: fail uses the spectral norm (ord=2), not the Frobenius norm
# hint: frobenius|matrix_norm|norm|value|differ|expected
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, ord=2)
        out.append(norm.item())
        X = X / norm
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, ord=2)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
