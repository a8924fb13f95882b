# expect: fail the at-end version caches the identity between calls and then writes the normalized product into it (torch.div(..., out=X)): the first call is right, every later call starts from the last product instead of I
# hint: identity|second call|called (again|twice)|twice|cached|overwr|in.place|out=|reuse|buffer|state
import torch

_identities = {}


def _identity(n, device, dtype):
    key = (n, str(device), dtype)
    if key not in _identities:  # make I once, not on every call
        _identities[key] = torch.eye(n, device=device, dtype=dtype)
    return _identities[key]


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = _identity(A.shape[0], A.device, A.dtype)
    Y = torch.empty_like(X)
    log = torch.empty(steps, device=A.device, dtype=A.dtype)
    for i in range(steps):  # two buffers, no allocation in the loop
        torch.matmul(A, X, out=Y)
        log[i] = torch.linalg.matrix_norm(Y)
        torch.div(Y, log[i], out=X)
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
