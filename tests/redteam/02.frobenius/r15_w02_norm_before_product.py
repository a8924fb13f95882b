# expect: fail the norm is taken (and logged) before the product A @ X, not after it
# hint: before (the |each |multiply|A @)|order|shift|first norm|identity|one step (behind|late)|lag|sqrt|\bI\b
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = A @ (X / norm)
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = A @ (X / norm)
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
