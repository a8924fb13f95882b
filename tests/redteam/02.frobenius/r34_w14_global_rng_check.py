# expect: fail at_end draws a random probe with the global RNG (torch.randn) to sanity-check the norm, changing the global random state
# hint: generator|random|seed|rng
import torch

def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    probe = torch.randn(A.shape[0], device=A.device)  # cheap sanity probe
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    assert probe.shape[0] == X.shape[0]
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
