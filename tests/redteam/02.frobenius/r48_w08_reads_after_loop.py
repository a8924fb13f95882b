# expect: fail per-step version keeps the norms on the device and calls .item() on each only after the loop, not as it logs
# hint: as (you|it is|they are) log|each step|every step|interleav|at the end|after the (loop|last)|defer|before the next|launch
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    pending = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.append(norm)
        X = X / norm
    return [n.item() for n in pending]  # one .item() per step, but all of them after the loop


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
