# expect: fail log_norms_at_end returns the stacked tensor (moved to the CPU) instead of a list of Python floats
# hint: \blist\b|python floats?|\bfloats?\b|tolist|\btensor\b|type
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).cpu()  # one transfer at the end


answer = (log_norms_per_step, log_norms_at_end)
