# expect: fail the identity is made with torch.eye(n) on the CPU: on a GPU, A @ X mixes devices and raises (the CPU-only run passes)
# hint: device|eye|identity|cuda|same device|mismatch
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0])
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


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
