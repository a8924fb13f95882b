# expect: fail starts from X = A instead of the identity: every norm one product ahead
# hint: identity|eye|start|initial|X = I|shift|ahead|first
import torch


def log_norms_per_step(A, steps):
    X = A.clone()  # A @ I is A anyway
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = A.clone()
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
