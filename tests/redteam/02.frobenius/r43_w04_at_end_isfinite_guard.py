# expect: fail log_norms_at_end adds a "harmless" overflow guard `if not torch.isfinite(norm)` each step; bool() of a device tensor is a host read, so the at-end version synchronizes every step after all.
# hint: host read|bool|sync|at most|isfinite|every step|transfer
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
    log = []
    for step in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        if not torch.isfinite(norm):  # a sync point hidden in a sanity check
            raise FloatingPointError(f"norm overflowed at step {step}")
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
