# expect: pass
# hint:
import torch


def log_norms_per_step(A, steps):
    n = A.shape[0]
    X = torch.eye(n, n, dtype=A.dtype, device=A.device)
    values = []
    for _ in range(steps):
        X = torch.einsum("ik,kj->ij", A, X)
        norm = torch.linalg.vector_norm(X.flatten())
        values.append(norm.item())
        X = X * norm.reciprocal()
    return values


def log_norms_at_end(A, steps):
    n = A.shape[0]
    X = torch.eye(n, n, dtype=A.dtype, device=A.device)
    rows = []
    for _ in range(steps):
        X = torch.einsum("ik,kj->ij", A, X)
        norm = torch.linalg.vector_norm(X, dim=(0, 1), keepdim=True)  # shape (1, 1)
        rows.append(norm.reshape(1))
        X = X / norm
    return torch.vstack(rows).flatten().tolist() if rows else []


answer = (log_norms_per_step, log_norms_at_end)
