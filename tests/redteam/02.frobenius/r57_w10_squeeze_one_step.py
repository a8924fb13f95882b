# expect: fail the at-end version returns torch.stack(log).squeeze().tolist(): with steps = 1 the squeeze leaves a 0-d tensor, and it returns a bare float, not a list of one norm
# hint: steps ?= ?1|one step|single|list|length|float|squeeze|0-d|shape|type
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)  # (1, 1): divides X directly
        log.append(norm)
        X = X / norm
    return torch.stack(log).squeeze().tolist()  # (steps, 1, 1) -> (steps,)


answer = (log_norms_per_step, log_norms_at_end)
