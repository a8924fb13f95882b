# expect: pass
# hint:
import torch


def _with_high_precision(fn):
    def wrapper(A, steps):
        before = torch.get_float32_matmul_precision()
        torch.set_float32_matmul_precision("high")
        try:
            return fn(A, steps)
        finally:
            torch.set_float32_matmul_precision(before)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


@_with_high_precision
def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


@_with_high_precision
def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
