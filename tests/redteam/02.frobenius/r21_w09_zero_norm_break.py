# expect: fail at-end version checks "if norm == 0: break" each step: bool() of a device tensor, a host read every step
# hint: bool|if|==|compar|break|zero|host read|each step|every step|per step
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
        if norm == 0:  # a singular A: nothing left to normalize
            break
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
