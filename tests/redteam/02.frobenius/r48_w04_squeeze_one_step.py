# expect: fail squeeze() turns the stacked log into a 0-d tensor when steps == 1: returns a float, not a list
# hint: list|steps\s*=+\s*1|one step|single|float|length|len\(|type
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
        norm = torch.linalg.matrix_norm(X, keepdim=True)  # shape (1, 1)
        log.append(norm)
        X = X / norm
    # (steps, 1, 1) -> (steps,) ... except that steps == 1 squeezes to a 0-d tensor
    return torch.stack(log).squeeze().tolist()


answer = (log_norms_per_step, log_norms_at_end)
