# expect: pass
# hint:
import torch


def _frobenius(X):
    return torch.tensordot(X, X, dims=2).sqrt()  # sqrt of the sum of X_ij ** 2


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A.mm(X)
        norm = _frobenius(X)
        log.append(norm.item())
        X.div_(norm)  # X is this step's fresh product: safe to scale in place
    return log


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    log = torch.full((steps,), float("nan"), dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A.mm(X)
        log[i : i + 1] = _frobenius(X)
        X.div_(log[i])
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
