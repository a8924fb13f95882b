# expect: fail the per-step version turns on torch.set_flush_denormal(True) (to keep tiny entries from slowing the CPU) and never turns it off: a process-wide setting left changed
# hint: denormal|flush|subnormal|process.wide|global|setting|restore|put back|left (on|changed)|changed
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    torch.set_flush_denormal(True)  # X / norm can get tiny: denormals are slow on a CPU
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
