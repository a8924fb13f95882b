# expect: fail the final copy is non_blocking and .tolist() reads the host buffer before the copy has arrived (no wait)
# hint: non.?blocking|wait|sync|arriv|hazard|before the copy|not (yet )?(done|finished|complete)
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
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    host = torch.stack(log).to("cpu", non_blocking=True)  # "no sync": returns before the data lands
    return host.tolist()  # a CPU tensor: read at once, whatever is there


answer = (log_norms_per_step, log_norms_at_end)
