# expect: pass preallocated device log, in-place division, torch.mm and vector_norm
# hint: 
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = torch.mm(A, X)
        norm = torch.linalg.vector_norm(X)  # over all entries: the Frobenius norm
        log.append(norm.item())
        X.div_(norm)  # X is a fresh product: dividing it in place is safe
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = torch.empty(steps, device=A.device, dtype=A.dtype)
    for i in range(steps):
        X = torch.mm(A, X)
        norm = torch.linalg.vector_norm(X)
        log[i] = norm  # written on the device: no transfer
        X.div_(norm)
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
