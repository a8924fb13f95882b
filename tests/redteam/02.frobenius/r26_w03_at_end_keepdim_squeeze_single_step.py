# expect: fail at-end version keeps (1, 1) norms (keepdim=True, to broadcast), cats them to (steps, 1) and calls .squeeze().tolist(): with steps == 1 squeeze drops both dimensions, and tolist() of the 0-d tensor returns a bare float, not a list
# hint: squeeze|steps ?(==|=) ?1|one step|single step|0-d|0-dim|scalar|bare float|not a list|dimension
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)  # shape (1, 1): divides X directly
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)
        log.append(norm)
        X = X / norm
    return torch.cat(log).squeeze().tolist()  # (steps, 1) -> (steps,) -> floats


answer = (log_norms_per_step, log_norms_at_end)
