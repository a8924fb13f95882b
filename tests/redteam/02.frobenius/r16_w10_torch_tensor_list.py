# expect: fail at-end version builds the result with torch.tensor(list of 0-d tensors): one hidden host read per element
# hint: torch\.tensor|stack|per element|each element|one read|hidden|element-?wise|host read|copies
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
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.tensor(log).tolist()  # the whole log in one tensor, one transfer


answer = (log_norms_per_step, log_norms_at_end)
