# expect: fail log_norms_at_end writes every norm into one reused 0-d buffer (matrix_norm(..., out=buf)) and appends that same buffer each step, so the stacked log holds the last norm `steps` times: right only when steps == 1.
# hint: same|last|alias|buffer|out=|overwrit|every step|value
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
    buf = torch.empty((), dtype=A.dtype, device=A.device)  # no allocation per step
    log = []
    for _ in range(steps):
        X = A @ X
        torch.linalg.matrix_norm(X, out=buf)
        log.append(buf)  # the same tensor each time
        X = X / buf
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
