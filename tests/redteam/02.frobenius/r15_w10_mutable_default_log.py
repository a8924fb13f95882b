# expect: fail the log is a mutable default argument: norms accumulate across calls
# hint: state|between calls|across calls|second call|previous call|earlier call|accumulat|default|fresh|reset|called again|repeat
import torch


def log_norms_per_step(A, steps, norms=[]):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps, log=[]):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
