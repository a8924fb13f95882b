# expect: fail the identity is made on A.device.type ("cuda" = the current GPU), not on A's device: breaks for A on cuda:1
# hint: device|cuda:1|index|same device|current (gpu|device)
# Wrong: torch.eye(..., device=A.device.type) drops the device index, so for A on another GPU
# than the current one, A @ X mixes two devices (the chapter: operands must share a device).
import torch


def _identity_like(A):
    # "cuda" or "cpu": the same kind of device as A
    return torch.eye(A.shape[0], dtype=A.dtype, device=A.device.type)


def log_norms_per_step(A, steps):
    X = _identity_like(A)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = _identity_like(A)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
