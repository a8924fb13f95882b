# expect: fail the at-end version caches its result keyed on (id(A), steps): a later call with another matrix that got the same id (or the same A changed in place) returns the stale norms, with no work done
# hint: cache|memo|stale|reuse|previous call|between calls|same (result|answer)|no work|not recomput
import torch

_results = {}


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
    key = (id(A), steps)
    if key in _results:  # the same matrix again: the norms are known
        return list(_results[key])
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    norms = torch.stack(log).tolist()
    _results[key] = norms
    return list(norms)


answer = (log_norms_per_step, log_norms_at_end)
