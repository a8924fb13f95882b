# expect: fail the at-end version copies A to the host once and runs the whole loop on the CPU: the log never lives on the device
# hint: host|cpu|device|moved|cop(y|ies) of A|transfer|where A
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    A_host = A.cpu()  # one transfer up front, then no device at all
    X = torch.eye(A_host.shape[0], dtype=A_host.dtype)
    log = []
    for _ in range(steps):
        X = A_host @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
