# expect: fail normalizes X by the previous step's norm before the product instead of after logging: the logged norms are of a differently scaled X (stale norm order)
# hint: norm|order
import torch

def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    norm = torch.linalg.matrix_norm(X)
    for _ in range(steps):
        X = X / norm  # normalize first
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    norm = torch.linalg.matrix_norm(X)
    for _ in range(steps):
        X = X / norm
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
