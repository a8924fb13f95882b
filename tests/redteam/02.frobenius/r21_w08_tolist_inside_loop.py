# expect: fail at-end version refreshes its Python copy of the log with torch.stack(log).tolist() inside the loop: a host read every step (and quadratic copying)
# hint: inside the loop|in the loop|each step|every step|per step|tolist|host read|once
import torch


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
    log, out = [], []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
        out = torch.stack(log).tolist()  # the log so far, ready whenever the loop stops
    return out


answer = (log_norms_per_step, log_norms_at_end)
