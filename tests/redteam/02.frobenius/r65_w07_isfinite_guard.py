# expect: fail the at-end version checks `if not torch.isfinite(norm)` every step: a bool() host read (a sync) per step
# hint: isfinite|bool|branch|host reads?|sync|every step|per step|each step
# Wrong: a guard against the overflow the exercise warns about; its `if` needs the value on the
# host, so the "at end" version synchronizes every step (right values, wrong cost).
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for step in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        if not torch.isfinite(norm):  # stop early rather than log infinities
            raise FloatingPointError(f"the norm overflowed at step {step}")
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
