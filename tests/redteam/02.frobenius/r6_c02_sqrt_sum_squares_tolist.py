# expect: pass
# hint:
import torch
def frob(X):
    return X.square().sum().sqrt()
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = frob(X)
        out.append(norm.tolist())
        X = X / norm
    return out
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = frob(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist() if norms else []
answer = (per_step, at_end)
