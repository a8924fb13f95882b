# expect: fail the at-end version guards the division with Python max(norm, eps): a tensor comparison turned into bool, a host read every step
# hint: bool|read|host|sync|each step|every step|per step|compar|max
import torch

EPS = 1e-30


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / max(norm, EPS)
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / max(norm, EPS)  # never divide by zero... via bool(EPS > norm): a sync point
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
