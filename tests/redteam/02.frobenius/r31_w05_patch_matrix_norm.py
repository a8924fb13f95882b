# expect: fail monkeypatches torch.linalg.matrix_norm at module level (import time) with a faster version and leaves it patched
# hint: patch|matrix_norm|replac
import torch

_matrix_norm = torch.linalg.matrix_norm


def _frobenius(X, ord="fro", dim=(-2, -1), keepdim=False, *, dtype=None, out=None):
    if ord == "fro" and out is None and dtype is None:
        return X.square().sum(dim=dim, keepdim=keepdim).sqrt()  # cheaper than the general norm
    return _matrix_norm(X, ord, dim, keepdim, dtype=dtype, out=out)


torch.linalg.matrix_norm = _frobenius


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
