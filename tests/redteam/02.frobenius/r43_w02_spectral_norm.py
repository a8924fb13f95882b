# expect: fail Uses matrix_norm(X, ord=2), the spectral norm (largest singular value), not the Frobenius norm the exercise asks for, so the logged values (and the normalization) differ.
# hint: frobenius|norm|ord|spectral|value|reference
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, ord=2)  # "the 2-norm": spectral, not Frobenius
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, ord=2)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
