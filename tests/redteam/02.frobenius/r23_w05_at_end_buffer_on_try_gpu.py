# expect: fail at-end version puts its log buffer on d2lgpu.try_gpu() instead of A.device: on a CPU-only machine they agree, but with a GPU present and A elsewhere (CPU, or cuda:1) every step copies the norm across devices
# hint: device|try_gpu|A\.device|cuda:0|cross.device|same device|copy
import torch

import d2lgpu

def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = torch.zeros(steps, device=d2lgpu.try_gpu())  # the log lives on the GPU
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
