# expect: fail results memoized by A's address and steps: a second call after A changed in place (or a new A at the same address) returns stale norms, and per-step does no reads
# hint: cach|memo|stale|second call|changed|in.place|same (address|memory|storage)|previous (call|result)
# Wrong: both versions keep their last results keyed on (A.data_ptr(), shape, steps); the key
# misses a change of A's values, and a cached per-step call transfers nothing.
import torch

_MEMO = {}


def _key(A, steps, which):
    return (which, A.data_ptr(), tuple(A.shape), A.dtype, str(A.device), steps)


def log_norms_per_step(A, steps):
    key = _key(A, steps, "per_step")
    if key in _MEMO:
        return list(_MEMO[key])
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    _MEMO[key] = list(out)
    return out


def log_norms_at_end(A, steps):
    key = _key(A, steps, "at_end")
    if key in _MEMO:
        return list(_MEMO[key])
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    out = torch.stack(log).tolist()
    _MEMO[key] = list(out)
    return out


answer = (log_norms_per_step, log_norms_at_end)
