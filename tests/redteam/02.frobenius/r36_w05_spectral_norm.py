# expect: fail torch.linalg.norm(X, 2) on a matrix is the spectral norm (largest singular value), not the Frobenius norm
# hint: frobenius|spectral|ord|matrix_norm|norm
import torch


def _norm(X):
    return torch.linalg.norm(X, 2)  # the 2-norm


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = _norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.zeros(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        norm = _norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
