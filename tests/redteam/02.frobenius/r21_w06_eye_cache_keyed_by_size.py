# expect: fail caches the identity in a module dict keyed by size only: the first call's device/dtype is reused, so later calls on another device multiply against a CPU (or wrong-dtype) identity
# hint: cache|device|dtype|identity|eye|global|between calls|keyed
import torch

_EYE = {}


def _identity(A):
    n = A.shape[0]
    if n not in _EYE:
        _EYE[n] = torch.eye(n, device=A.device, dtype=A.dtype)
    return _EYE[n]


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = _identity(A)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = _identity(A)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
