# expect: fail builds the identity with device=A.device.type ("cuda"), which means the current GPU, cuda:0: for A on cuda:1 the first product mixes devices and raises; only the CPU and the first GPU work
# hint: device|\.type|cuda:1|cuda:0|index|current (gpu|device)|A\.device|second gpu
import torch


def _start(A):
    return torch.eye(A.shape[0], device=A.device.type, dtype=A.dtype)


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = _start(A)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = _start(A)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
