# expect: fail at-end version converts with torch.stack(log).numpy().tolist(): fine for a CPU tensor, but .numpy() raises on a CUDA tensor, so the GPU cells fail
# hint: numpy|cuda|device|cpu\(\)|convert|host memory
import torch


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
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).numpy().tolist()  # one conversion at the end


answer = (log_norms_per_step, log_norms_at_end)
