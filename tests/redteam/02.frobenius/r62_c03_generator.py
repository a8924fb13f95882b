# expect: pass a lazy generator yields each step's 0-d norm tensor; the per-step version reads each with float() as it comes (before the next product), the at-end one stacks them all and reads once
# hint:
import torch


def _norms(A, steps):
    """Yield ||X||_F after each product, X normalized before the next one; lazy."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.vector_norm(X)  # all entries: the Frobenius norm of a matrix
        yield norm
        X = X / norm


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    return [float(norm) for norm in _norms(A, steps)]  # the generator waits for each read


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    return torch.stack(list(_norms(A, steps))).tolist()


answer = (log_norms_per_step, log_norms_at_end)
