# expect: fail the per-step version reads only every 10th norm as it goes (the "log every N steps" advice) and the rest at the end
# hint: every step|each step|per step|at least one|as you log|host read
import torch
def per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        if i % 10 == 0:
            print(f"step {i}: norm {norm.item():.4f}")
        X = X / norm
    return torch.stack(log).tolist()
def at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()
answer = (per_step, at_end)
