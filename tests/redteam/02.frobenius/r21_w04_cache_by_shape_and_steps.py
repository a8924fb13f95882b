# expect: fail both versions memoize their log in a dict keyed by (A.shape, steps): a second call with another A of the same shape returns the first A's norms
# hint: cache|memo|between calls|stale|keyed|shape|dict|global
import torch

_logs = {}


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    key = ("per_step", tuple(A.shape), steps)
    if key not in _logs:
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        log = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm.item())
            X = X / norm
        _logs[key] = log
    return list(_logs[key])


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    key = ("at_end", tuple(A.shape), steps)
    if key not in _logs:
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        log = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm)
            X = X / norm
        _logs[key] = torch.stack(log).tolist() if log else []
    return list(_logs[key])


answer = (log_norms_per_step, log_norms_at_end)
