# expect: fail Both versions divide by norm + 1e-6 "to avoid dividing by zero": harmless when the norms are near 10, but for a small-scale A (say 1e-6 * randn) the norms are about 1e-5 and the added epsilon shrinks X by about 10% each step, so every norm after the first is off by far more than 1e-3.
# hint: (eps|epsilon|1e-6|\+ ?1e|added to the norm|small(-| )scale|tiny|scale of A|divide by (exactly )?the norm)
import torch

EPS = 1e-6


def log_norms_per_step(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / (norm + EPS)  # never divide by zero
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / (norm + EPS)
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
