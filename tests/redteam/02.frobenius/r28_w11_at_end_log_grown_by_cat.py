# expect: fail log_norms_at_end grows its device log with torch.cat every step: each step allocates a new tensor and copies the whole log so far, quadratic copies over the steps (about steps**2 / 2 element copies) instead of one stack or a preallocated buffer.
# hint: (cat|concat|grow|quadratic|copies the (whole )?log|every step.*(copy|alloc)|alloc.*every step|preallocat|torch\.stack)
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    log = A.new_empty(0)  # on the device; grows as we go
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log = torch.cat([log, norm.reshape(1)])
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
