# expect: fail logs the norm before the product each step: the first logged value is ||I|| = sqrt(n) and every norm is one step late
# hint: order|first|before|off.by.one|identity|sqrt|step
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
