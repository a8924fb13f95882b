# expect: fail results memoized by tensor identity: stale after A changes in place, no work on repeat calls
# hint: cache|memo|lru|stale|repeat|second call|same (a|tensor)|in place|in-place
import functools

import torch


def _norms(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return log


@functools.lru_cache(maxsize=8)  # the timing cell calls these with the same A again and again
def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


@functools.lru_cache(maxsize=8)
def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    return torch.stack(_norms(A, steps)).tolist()


answer = (log_norms_per_step, log_norms_at_end)
