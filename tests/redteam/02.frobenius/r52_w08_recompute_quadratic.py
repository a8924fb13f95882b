# expect: fail per-step version restarts from the identity for every logged norm: right values, steps*(steps+1)/2 products instead of steps
# hint: product|matmul|launch|quadratic|cost|recomput|too many
import torch


def _norm_after(A, k):
    """The k-th logged norm, recomputed from X = I."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(k):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        X = X / norm
    return norm


def log_norms_per_step(A, steps):
    return [_norm_after(A, k).item() for k in range(1, steps + 1)]


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
