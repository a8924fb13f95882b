# expect: fail switches autograd off with torch.set_grad_enabled(False) and never switches it back on
# hint: grad|autograd|no_grad|setting|restor|put back|changed|left
import torch


def log_norms_per_step(A, steps):
    torch.set_grad_enabled(False)  # logging needs no graph
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    torch.set_grad_enabled(False)
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
