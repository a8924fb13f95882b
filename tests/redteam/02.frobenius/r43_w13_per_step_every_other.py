# expect: fail log_norms_per_step "saves half the syncs" by reading the norms two at a time (a .tolist() of the last two every other step), so it makes about steps/2 host reads, not one per step as it logs.
# hint: per.step|each step|one per step|at least|item|host read
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms, pending = [], []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.append(norm)
        X = X / norm
        if len(pending) == 2:
            norms.extend(torch.stack(pending).tolist())
            pending = []
    if pending:
        norms.extend(torch.stack(pending).tolist())
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
