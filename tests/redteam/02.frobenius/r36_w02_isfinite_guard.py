# expect: fail at-end version guards each step with "if not torch.isfinite(norm)": a hidden bool() host read (sync) every step
# hint: bool|branch|isfinite|if |host read|sync|condition
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
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        if not torch.isfinite(norm):  # never divide by inf
            raise FloatingPointError(f"norm overflowed at step {i}")
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
