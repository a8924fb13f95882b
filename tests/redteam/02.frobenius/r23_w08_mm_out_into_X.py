# expect: fail at-end version writes each product in place with torch.mm(A, X, out=X) to save memory: the output overlaps an input, so the product reads entries it has already overwritten and every norm after the first step is wrong
# hint: out=|in.place|alias|overlap|same memory|input|overwrit
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
    log = torch.empty(steps, device=A.device, dtype=A.dtype)
    for i in range(steps):
        torch.mm(A, X, out=X)  # in place: no new 100 x 100 tensor per step
        log[i] = torch.linalg.matrix_norm(X)
        X.div_(log[i])
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
