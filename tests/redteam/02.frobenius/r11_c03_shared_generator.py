# expect: pass
# hint:
import torch


def _norms(A, steps):
    """Yield each step's norm as a 0-d tensor on A's device, lazily."""
    X = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        yield norm
        X.div_(norm)  # X is this function's own product: dividing it in place is safe


def log_norms_per_step(A, steps):
    # the generator is lazy: each .item() runs right after its step, before the next product
    return [norm.item() for norm in _norms(A, steps)]


def log_norms_at_end(A, steps):
    return torch.stack(list(_norms(A, steps))).tolist()


answer = (log_norms_per_step, log_norms_at_end)
