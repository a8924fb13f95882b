# expect: fail log_norms_at_end preallocates its log with torch.empty(steps), on the host, so `log[i] = norm` copies each device norm to the CPU every step: a transfer (and on a GPU a wait) per step instead of one at the end.
# hint: device|host|cpu|transfer|copy|each step|preallocat
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.empty(steps)  # forgot device=A.device: the log lives on the host
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm  # a device-to-host copy every step
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
