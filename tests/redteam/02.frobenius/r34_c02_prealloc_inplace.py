# expect: pass preallocated device tensor, in-place division, float() per step, vector_norm (== Frobenius)
# hint: 
import torch

def _step(A, X):
    X = A @ X
    norm = torch.linalg.vector_norm(X)  # over all entries: the Frobenius norm
    X.div_(norm)
    return X, norm


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    logged = []
    for _ in range(steps):
        X, norm = _step(A, X)
        logged.append(float(norm))
    return logged


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X, norm = _step(A, X)
        log[i] = norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
