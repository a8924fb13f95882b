# expect: fail the at-end version grows its device log with torch.cat every step: an extra kernel and a copy of the whole log each step, O(steps^2) bytes moved, instead of a list stacked once (or a preallocated tensor)
# hint: cat|concat|grow|quadratic|copies|copy|extra (kernel|launch|op)|launches|per step|preallocat|stack
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
    log = torch.empty(0, device=A.device, dtype=A.dtype)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log = torch.cat([log, norm.reshape(1)])  # the log stays a tensor on the device
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
