# expect: fail at-end version logs the 0-d norm tensor, then turns that same tensor into 1/norm in place (norm.reciprocal_()) to multiply X: the log, read only at the end, holds 1/norm; the per-step version read it before the change and is right
# hint: reciprocal|in.?place|alias|same tensor|modif|overwr|1 ?/ ?norm|inverse|mutat
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X.mul_(norm.reciprocal_())  # one multiply, no new tensor: X is ours (A @ X made it)
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)  # stays on the device
        X.mul_(norm.reciprocal_())  # same trick as above
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
