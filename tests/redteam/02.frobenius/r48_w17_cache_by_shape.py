# expect: fail memoizes the norms by (shape, dtype, device, steps): a second, different A of the same shape gets the first A's norms
# hint: cache|memo|stale|state|previous|earlier call|different A|same shape|reference|relative|differ
import torch

_seen = {}


def _norms_on_device(A, steps):
    key = (tuple(A.shape), A.dtype, A.device, steps)  # "the same problem": reuse the work
    if key not in _seen:
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        log = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm)
            X = X / norm
        _seen[key] = torch.stack(log)
    return _seen[key]


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    return _norms_on_device(A, steps).tolist()


answer = (log_norms_per_step, log_norms_at_end)
