# expect: fail at-end version keeps its preallocated log buffer in a module global, sized by the first call and reused: a later call with fewer steps returns stale extra norms from the earlier call, one with more steps raises IndexError
# hint: buffer|reus|global|length|size|steps|previous call|stale|first call
import torch

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


_log = None  # allocated once, reused by later calls


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    global _log
    if _log is None or _log.device != A.device:
        _log = torch.empty(steps, device=A.device, dtype=A.dtype)
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    for i in range(steps):
        X = A @ X
        _log[i] = torch.linalg.matrix_norm(X)
        X = X / _log[i]
    return _log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
