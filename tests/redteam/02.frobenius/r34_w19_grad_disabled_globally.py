# expect: fail turns autograd off with torch.set_grad_enabled(False) 'for speed' and never turns it back on
# hint: grad|no_grad|restore|setting
import torch

def log_norms_per_step(A, steps):
    torch.set_grad_enabled(False)  # no graph needed
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
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
