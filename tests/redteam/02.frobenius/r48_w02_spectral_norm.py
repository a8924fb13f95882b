# expect: fail torch.linalg.norm(X, 2) is the spectral norm of a matrix, not the Frobenius norm
# hint: frobenius|spectral|ord|reference|relative|1e-3|differ|wrong (norm|value)
import torch


def _norm(X):
    return torch.linalg.norm(X, 2)  # "the 2-norm": for a 2-D input this is the largest singular value


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = _norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = _norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
