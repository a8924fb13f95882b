# expect: pass the at-end version hands CPU tensors to the per-step loop: written as a wrong answer (steps reads on the CPU), judged right: on the CPU .item() has no device to wait for (the chapter's CPU timing shows both versions about equal), and on a GPU, as on the checker's pretend one, it keeps the log on the device and reads once
# hint:
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    if not A.is_cuda:
        # nothing asynchronous to wait for on a CPU: the simple loop costs the same
        return log_norms_per_step(A, steps)
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
