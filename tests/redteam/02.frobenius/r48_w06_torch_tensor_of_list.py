# expect: fail torch.tensor(list of 0-d device tensors) reads every element to the host: steps transfers, not one
# hint: torch\.tensor|read|transfer|each (norm|element|step)|per (step|element)|sync|host|stack
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
    # looks like one conversion, but torch.tensor() converts each 0-d tensor to a Python number
    return torch.tensor(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
