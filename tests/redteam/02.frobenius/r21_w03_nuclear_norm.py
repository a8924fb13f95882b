# expect: fail uses matrix_norm(X, "nuc") (the nuclear norm, sum of singular values), not the Frobenius norm, in both versions
# hint: nuc|nuclear|frobenius|fro|singular|wrong norm
import torch


def _step(A, X):
    X = A @ X
    return X, torch.linalg.matrix_norm(X, "nuc")


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X, norm = _step(A, X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X, norm = _step(A, X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
