# expect: fail at-end version guards the division with Python max(norm, 1e-12): comparing a device tensor to a float is a bool() host read every step
# hint: max|bool|compar|guard|host read|each step|every step|per step|sync
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
        X = X / max(norm, 1e-12)  # never divide by zero
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
