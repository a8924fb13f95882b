# expect: fail at-end version computes every norm into one reused out= tensor and appends that same tensor each step: all list entries alias one buffer, so every logged value equals the last norm
# hint: out=|alias|same tensor|one buffer|reus|overwrit|clone|last (norm|value)
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
    norm = torch.empty((), device=A.device, dtype=A.dtype)  # no allocation per step
    log = []
    for _ in range(steps):
        X = A @ X
        torch.linalg.matrix_norm(X, out=norm)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
