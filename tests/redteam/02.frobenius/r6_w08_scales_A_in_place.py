# expect: fail the at-end version divides the caller's A in place by its norm ("to keep numbers finite") and scales the log back: right values once, but A is changed, so the next call on it logs wrong norms
# hint: in place|in-place|A\b|input|modif|chang|mutat|value|differ
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out
def at_end(A, steps):
    scale = torch.linalg.matrix_norm(A)
    A.div_(scale)
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm * scale)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
