# expect: fail makes the identity with torch.eye(n) on the default (CPU) device, not A's: fails (device mismatch) when A is on a GPU
# hint: device|cuda|cpu|mismatch|same device
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0])  # float32 on the CPU, whatever A's device
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0])
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
