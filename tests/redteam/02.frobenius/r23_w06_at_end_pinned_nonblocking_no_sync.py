# expect: fail at-end version copies each norm into a pinned host buffer with non_blocking=True (steps transfers, not one) and reads it with .tolist() without waiting: on a GPU the last copies may not have landed (the device-to-host hazard), on a CPU nothing shows
# hint: non_blocking|pinned|pin_memory|hazard|synchron|race|host buffer|transfer|each step|not (yet )?(arrived|landed|finished)
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


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    # pinned host buffer: asynchronous copies do not stall the loop
    log = torch.empty(steps, dtype=A.dtype, pin_memory=A.is_cuda)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i].copy_(norm, non_blocking=True)
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
