# expect: pass norm written as sqrt of the sum of squares, list of 0-d tensors stacked once (empty steps handled)
# hint:
import torch


def _frobenius(X):
    return (X * X).sum().sqrt()


def log_norms_per_step(A, steps):
    n = A.size(0)
    X = torch.eye(n, n, dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        nrm = _frobenius(X)
        out.append(nrm.item())
        X = X / nrm
    return out


def log_norms_at_end(A, steps):
    n = A.size(0)
    X = torch.eye(n, n, dtype=A.dtype, device=A.device)
    kept = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        nrm = _frobenius(X)
        kept.append(nrm)
        X = X / nrm
    if not kept:
        return []
    return torch.stack(kept).tolist()


answer = (log_norms_per_step, log_norms_at_end)
