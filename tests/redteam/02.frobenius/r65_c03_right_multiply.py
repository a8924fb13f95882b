# expect: pass
# hint:
# Right: X = X @ A gives the same powers A^k as A @ X (X starts at I); vector_norm of all
# entries is the Frobenius norm; per-step divides by the Python float it already read.
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = X @ A
        value = torch.linalg.vector_norm(X).item()  # transferred as it is logged
        out.append(value)
        X = X / value
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = X @ A
        norm = torch.linalg.vector_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).cpu().tolist()  # one copy to the host; tolist then reads host memory


answer = (log_norms_per_step, log_norms_at_end)
