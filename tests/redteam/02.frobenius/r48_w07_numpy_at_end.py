# expect: fail .numpy() on the stacked log works only for a CPU tensor: raises for a GPU tensor
# hint: numpy|cuda|gpu|device|cpu\(\)|host
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
    return torch.stack(log).numpy().tolist()  # zero-copy on a CPU; TypeError for a cuda tensor


answer = (log_norms_per_step, log_norms_at_end)
