# expect: fail the preallocated log lives on the host: log[i] = norm copies device->host (a wait) every step
# hint: host|cpu|device|transfer|copy|each step|per step|every step|sync|wait
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = torch.empty(steps, dtype=A.dtype)  # no device=: a host tensor
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm  # a device-to-host copy of one number, every step
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
