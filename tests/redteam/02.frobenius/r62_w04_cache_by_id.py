# expect: fail the at-end version memoizes its result keyed on (id(A), steps): a later call with A changed in place, or a new A that reuses the freed one's id, gets the stale norms (and the timing cell times a dict lookup)
# hint: cache|cached|memo|stale|previous call|second call|called again|same result|in.place|changed
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
    key = (id(A), steps)  # the timing cell calls this again and again with the same A
    if key not in _results:
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        log = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm)
            X = X / norm
        _results[key] = torch.stack(log).tolist()
    return list(_results[key])


answer = (log_norms_per_step, log_norms_at_end)
