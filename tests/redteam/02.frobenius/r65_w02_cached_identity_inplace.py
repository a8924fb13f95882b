# expect: fail the cached identity is overwritten in place, so a second call starts from the last X, not from I
# hint: second call|called (again|twice)|identity|start(s|ing)? (from|at)|cach|state|previous call|earlier call
# Wrong: the identity is made once and cached per (n, dtype, device), and the loop updates X in
# place (copy_, div_) "to save allocations": the first call corrupts the cached I.
import torch

_IDENTITY = {}


def _identity(A):
    key = (A.shape[0], A.dtype, A.device)
    if key not in _IDENTITY:
        _IDENTITY[key] = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    return _IDENTITY[key]


def log_norms_per_step(A, steps):
    X = _identity(A)
    out = []
    for _ in range(steps):
        X.copy_(A @ X)  # in place: no new X each step
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X.div_(norm)
    return out


def log_norms_at_end(A, steps):
    X = _identity(A)
    log = []
    for _ in range(steps):
        X.copy_(A @ X)
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X.div_(norm)
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
