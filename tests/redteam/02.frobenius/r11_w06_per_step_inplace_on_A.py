# expect: fail log_norms_per_step starts from X = A (skipping A @ I) and divides X in place, so the first X /= norm rescales the caller's A
# hint: in.?place|modif|mutat|chang|alias|overwr|rescal|\bA\b|input|argument|caller
import torch


def log_norms_per_step(A, steps):
    X = A  # A @ I is A: the first product is free
    norms = []
    for step in range(steps):
        if step:
            X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X /= norm  # in place: no new tensor per step
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
