# expect: fail per-step version logs into one module-level list that it clears and returns on every call: each call's result is the same list object, so a log kept from an earlier call is wiped and overwritten by the next call
# hint: global|shared|same list|alias|clear|mutat|previous call|earlier|overwrit
import torch

LOG = []  # the training log


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    LOG.clear()
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        LOG.append(norm.item())
        X = X / norm
    return LOG


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
