# expect: pass
# hint:
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = torch.mm(A, X)
        norm = torch.linalg.norm(X)  # ord=None on a matrix: Frobenius
        out.append(norm.item())
        X = torch.div(X, norm)
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    kept = []
    for _ in range(steps):
        X = torch.mm(A, X)
        norm = torch.linalg.norm(X)
        kept.append(norm)
        X = torch.div(X, norm)
    return torch.stack(kept).tolist()


answer = (log_norms_per_step, log_norms_at_end)
