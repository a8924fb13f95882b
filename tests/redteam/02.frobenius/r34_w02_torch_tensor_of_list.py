# expect: fail at_end builds the result with torch.tensor(list of 0-d device tensors): torch.tensor reads every element on the host (steps reads)
# hint: stack|torch\.tensor|read
import torch

def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


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
