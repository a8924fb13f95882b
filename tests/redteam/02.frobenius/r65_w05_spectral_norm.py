# expect: fail torch.linalg.norm(X, ord=2) of a matrix is the spectral norm (largest singular value), not the Frobenius norm
# hint: spectral|singular|frobenius|\bfro\b|ord
# Wrong: "ord=2" reads like "the 2-norm", but for a 2-D tensor it is the spectral norm; the
# values approach the Frobenius ones as X tends to low rank, so only early steps differ much.
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, ord=2)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.norm(X, ord=2)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
