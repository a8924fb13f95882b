# expect: pass
# hint:
import torch


def _step(A, X):
    """One step: the next product, normalized, and its norm (still on the device)."""
    Y = A @ X
    norm = Y.norm(p="fro")
    return Y / norm, norm


def log_norms_per_step(A, steps):
    X, log = torch.eye(len(A), dtype=A.dtype, device=A.device), []
    for _ in range(steps):
        X, norm = _step(A, X)
        log.append(float(norm))
    return log


def log_norms_at_end(A, steps):
    X, kept = torch.eye(len(A), dtype=A.dtype, device=A.device), []
    for _ in range(steps):
        X, norm = _step(A, X)
        kept.append(norm)
    if not kept:
        return []
    return torch.stack(kept).cpu().tolist()  # one copy to the host, then plain floats


answer = (log_norms_per_step, log_norms_at_end)
