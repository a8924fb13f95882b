# expect: pass divides by the previous norm when forming the next product (same numbers), vector_norm
# hint: 
import torch


def _products(A, steps):
    """Yields X_k = A @ (X_{k-1} / ||X_{k-1}||) and its norm; the division is folded into the next step."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    previous = None
    for _ in range(steps):
        X = A @ X if previous is None else A @ (X / previous)
        norm = torch.linalg.vector_norm(X)  # the 2-norm of all entries: the Frobenius norm
        yield norm
        previous = norm


def log_norms_per_step(A, steps):
    out = []
    for norm in _products(A, steps):
        value = norm.item()
        out.append(value)
    return out


def log_norms_at_end(A, steps):
    kept = list(_products(A, steps))
    if not kept:
        return []
    return torch.stack(kept).tolist()


answer = (log_norms_per_step, log_norms_at_end)
