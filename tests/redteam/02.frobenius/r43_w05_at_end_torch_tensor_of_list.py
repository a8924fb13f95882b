# expect: fail log_norms_at_end builds the log with torch.tensor(list of 0-d device tensors) instead of torch.stack; torch.tensor converts every element to a Python number, one host read (and on a GPU one sync) per step hidden inside a single call.
# hint: stack|torch\.tensor|host read|per element|each|transfer|sync
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
    return torch.tensor(log).tolist()  # reads each 0-d tensor back, one by one


answer = (log_norms_per_step, log_norms_at_end)
