# expect: fail per-step version reads the host only every 10 steps (batched), not once per step
# hint: per.step|each step|every step|once per|at least one|too few|fewer|batch
import torch

FLUSH_EVERY = 10


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms, pending = [], []
    for step in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.append(norm)
        X = X / norm
        if (step + 1) % FLUSH_EVERY == 0 or step == steps - 1:
            norms.extend(torch.stack(pending).tolist())  # log as we go, a few at a time
            pending = []
    return norms


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
