# expect: fail norm computed in bfloat16 (low precision) to save bandwidth; values off by ~0.4%
# hint: precision|bfloat16|dtype|float32|1e-3|relative
import torch

def _norm(X):
    return torch.linalg.matrix_norm(X.bfloat16()).float()


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = _norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = _norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
