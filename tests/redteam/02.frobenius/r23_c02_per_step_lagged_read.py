# expect: pass per-step reads each norm one step late (after launching the next product, the last one after the loop): still one .item() per step, the GPU keeps a step queued; at-end uses a float64 log buffer
# hint: 
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log, pending = [], None
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        X = X / norm  # next step's input is queued before we wait
        if pending is not None:
            log.append(pending.item())  # the previous step's norm
        pending = norm
    if pending is not None:
        log.append(pending.item())
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = torch.zeros(steps, device=A.device, dtype=torch.float64)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
