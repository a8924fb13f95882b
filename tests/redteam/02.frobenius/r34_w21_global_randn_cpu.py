# expect: fail per_step starts from the identity plus a tiny jitter drawn from the global RNG (torch.randn without a generator), advancing the caller's random state
# hint: seed|generator|random|rng|fork_rng
import torch


def log_norms_per_step(A, steps):
    n = A.shape[0]
    jitter = 1e-9 * torch.randn(n, n, dtype=A.dtype)  # global RNG, on the CPU
    X = torch.eye(n, dtype=A.dtype, device=A.device) + jitter.to(A.device)
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
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
