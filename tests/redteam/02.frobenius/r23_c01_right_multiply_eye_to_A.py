# expect: pass multiplies on the right (X = X @ A, with torch.mm): powers of A commute, so the same X; identity made with torch.eye(n).to(A); at-end writes into A.new_empty(steps)
# hint: 
import torch


def _identity_like(A):
    return torch.eye(A.shape[0]).to(A)  # A's dtype and device


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = _identity_like(A)
    log = []
    for _ in range(steps):
        X = torch.mm(X, A)  # A^k X = X A^k: every X is a scaled power of A
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = _identity_like(A)
    log = A.new_empty(steps)
    for k in range(steps):
        X = torch.mm(X, A)
        log[k] = torch.linalg.matrix_norm(X)
        X = X / log[k]
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
