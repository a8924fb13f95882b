# expect: fail at-end version copies A to the host (A.cpu()) and runs the whole loop there: two reads in all, but the work and the log are not on the device
# hint: device|cpu|host|on the device|copy|where
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
    A_host = A.cpu()  # one transfer, then no device round trips at all
    X = torch.eye(A_host.shape[0], dtype=A_host.dtype)
    log = torch.empty(steps, dtype=A_host.dtype)
    for i in range(steps):
        X = A_host @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
