# expect: fail spectral norm (ord=2) logged instead of the Frobenius norm
# hint: frobenius|spectral|ord|largest singular|which norm
import torch


def _step_norm(X):
    # "the 2-norm of the matrix"
    return torch.linalg.matrix_norm(X, ord=2)


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = _step_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = _step_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
