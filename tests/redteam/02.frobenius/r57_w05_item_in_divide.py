# expect: fail the at-end version keeps the log on the device but divides by norm.item(), a host read every step
# hint: host read|item|transfer|read.*(step|once)|sync|per step|every step|at most
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
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm.item()  # dividing by a Python number is cheaper
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
