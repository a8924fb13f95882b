# expect: fail the identity is hard-coded as 100 x 100 (torch.eye(100)) in the per-step version, so it only works for the prompt's 100 x 100 A
# hint: size|shape|eye|identity|hard.?cod|100|other n|dimension|mat1 and mat2|cannot be multiplied
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(100, device=A.device, dtype=A.dtype)  # the exercise's 100 x 100 products
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
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
