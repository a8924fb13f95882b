# expect: fail caches the identity per (n, dtype, device) with functools.cache, then the at-end loop writes each normalized X into it (torch.div(..., out=X)) to avoid allocations: the cached "identity" is overwritten, so every later call (of either version) with the same size starts from the last X of that at-end call and logs wrong norms (right on a first call only)
# hint: cache|cached|lru|identity|eye|overwr|modif|second call|between calls|state|reus|out=
import functools

import torch


@functools.cache
def _identity(n, dtype, device):
    return torch.eye(n, dtype=dtype, device=device)  # made once per size, dtype and device


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = _identity(A.shape[0], A.dtype, A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = _identity(A.shape[0], A.dtype, A.device)
    Y = torch.empty_like(X)
    log = A.new_empty(steps)
    for k in range(steps):
        torch.mm(A, X, out=Y)  # no new tensor per step
        torch.linalg.matrix_norm(Y, out=log[k])
        torch.div(Y, log[k], out=X)
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
