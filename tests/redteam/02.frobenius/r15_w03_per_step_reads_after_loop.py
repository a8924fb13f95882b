# expect: fail per-step version transfers every norm only after the loop (steps reads, all at the end)
# hint: as (you|it|they) (log|go)|during|inside the loop|in the loop|after the loop|interleav|before the next|each step's|as it goes|while .*loop|same step|at the end
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    kept = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        kept.append(norm)
        X = X / norm
    # one .item() per norm: that is a transfer for each step
    return [n.item() for n in kept]


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    kept = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        kept.append(norm)
        X = X / norm
    return torch.stack(kept).tolist() if kept else []


answer = (log_norms_per_step, log_norms_at_end)
