# expect: fail at-end version squeezes the stacked log: with steps=1 .tolist() returns a bare float, not a list
# hint: list|steps ?=+ ?1|one step|float
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)  # shape (1, 1): broadcasts in the division
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, keepdim=True)
        norms.append(norm)
        X = X / norm
    # (steps, 1, 1) -> squeeze() -> (steps,) ... or a 0-d tensor when steps == 1
    return torch.stack(norms).squeeze().tolist()


answer = (log_norms_per_step, log_norms_at_end)
