# expect: fail Starts from X = A instead of the identity, so the first logged norm is ||A @ A||_F and every norm is one product ahead of the reference.
# hint: identity|eye|start|first|X = I|value|reference
import torch


def log_norms_per_step(A, steps):
    X = A.clone()  # should be the identity
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
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
