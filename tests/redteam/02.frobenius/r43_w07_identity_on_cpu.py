# expect: fail The identity is made with torch.eye(n) on the default device (CPU) and default dtype, not A's: on a GPU `A @ X` fails on mixed devices, and with a non-float32 A it mixes dtypes; it only works when A is a float32 CPU tensor.
# hint: device|dtype|eye|identity|A\.device|cpu
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0])  # on the CPU, float32, whatever A is
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
