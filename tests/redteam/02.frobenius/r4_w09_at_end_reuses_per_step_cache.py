# expect: fail the at-end version hands back the norms the per-step version computed and cached for the same A: it does no work of its own
# hint: cache|same|work|compute|state|steps|matmul|product|launch
import torch
_cache = {}
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    _cache[(id(A), steps)] = (A, list(out))  # A kept: its id names no other matrix
    return out
def at_end(A, steps):
    key = (id(A), steps)
    if key in _cache:
        return list(_cache[key][1])
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
