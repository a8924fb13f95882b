# expect: fail at-end version synchronizes the device every step "to be safe"
# hint: sync|synchroni[sz]e|wait|d2lgpu\.sync|each step|every step
import torch

import d2lgpu


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
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
        d2lgpu.sync(A.device)  # the step is done before the next one starts
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
