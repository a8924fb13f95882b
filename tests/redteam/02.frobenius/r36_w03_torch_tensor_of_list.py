# expect: fail at-end version builds the result with torch.tensor(list of 0-d device tensors): converts each element on the host, one read per step, instead of torch.stack
# hint: torch\.tensor|stack|host read|item|transfer|once
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
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.tensor(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
