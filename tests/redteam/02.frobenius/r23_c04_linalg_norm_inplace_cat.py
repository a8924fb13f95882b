# expect: pass torch.linalg.norm (Frobenius by default for a matrix), in-place X.div_(), per-step divides by the Python float it read; at-end joins unsqueezed norms with torch.cat once
# hint: 
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.diag(A.new_ones(A.shape[0]))
    log = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        value = torch.linalg.norm(X).item()
        log.append(value)
        X.div_(value)
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.diag(A.new_ones(A.shape[0]))
    parts = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        norm = torch.linalg.norm(X)
        parts.append(norm.unsqueeze(0))
        X.div_(norm)
    return torch.cat(parts).tolist() if parts else []


answer = (log_norms_per_step, log_norms_at_end)
