# expect: fail keepdim norms are stacked and .squeeze()d, so for steps == 1 the at-end version returns a bare float instead of a list of one float
# hint: steps ?(=|==) ?1|one step|single|squeeze|scalar|not a list|list of|float instead|type|length|len
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)  # shape (1, 1): broadcasts in X / norm
        log.append(norm)
        X = X / norm
    return torch.stack(log).squeeze().tolist()  # (steps, 1, 1) -> (steps,)


answer = (log_norms_per_step, log_norms_at_end)
