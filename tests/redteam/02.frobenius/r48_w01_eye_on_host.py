# expect: fail the identity is made on the default device (CPU), not on A's device
# hint: device|cuda|cpu|same device|mismatch
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0])  # forgot device=A.device: fine on a CPU, a mismatch on a GPU
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
