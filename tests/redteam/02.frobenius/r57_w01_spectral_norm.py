# expect: fail logs the spectral norm (torch.linalg.norm(X, 2), the largest singular value) instead of the Frobenius norm, in both versions
# hint: frobenius|spectral|ord|matrix_norm|wrong norm|norm.*(differ|value)|reference
import torch


def log_norms_per_step(A, steps):
    """The norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, 2)  # "the 2-norm" of the matrix
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, 2)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
