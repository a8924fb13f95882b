# expect: fail log_norms_at_end checks each norm with `if not torch.isfinite(norm)` inside the loop: a bool() host read every step
# hint: bool|isfinite|\bif\b|branch|condition|host reads?|reads? (the )?(host|device)|(reads?|sync\w*|transfers?).*(loop|each step|every step|per step|1000|steps)|sync
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
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        if not torch.isfinite(norm):  # guard against overflow before dividing
            raise FloatingPointError("the norm overflowed")
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
