# expect: fail results memoized per (id(A), steps) between calls: a second call does no products, an A changed in place (or a new A that reuses a freed id) gets stale norms
# hint: cache|memo|stale|second call|state|between calls|earlier call
import torch

_done = {}


def _norm_log(A, steps):
    key = (id(A), steps)
    if key not in _done:
        X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
        log = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            log.append(norm)
            X = X / norm
        _done[key] = log
    return _done[key]


def log_norms_per_step(A, steps):
    return [norm.item() for norm in _norm_log(A, steps)]


def log_norms_at_end(A, steps):
    log = _norm_log(A, steps)
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
