# expect: fail identity made with torch.eye(n) on the CPU regardless of A's device (device mismatch on a GPU)
# hint: device
import torch

def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0])
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0])
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
