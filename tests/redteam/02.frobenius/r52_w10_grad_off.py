# expect: fail turns autograd off with torch.set_grad_enabled(False) "to save memory" and leaves it off for the caller
# hint: grad|autograd|no_grad|setting|mode
import torch


def log_norms_per_step(A, steps):
    torch.set_grad_enabled(False)  # no graph needed for logging
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    torch.set_grad_enabled(False)
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
