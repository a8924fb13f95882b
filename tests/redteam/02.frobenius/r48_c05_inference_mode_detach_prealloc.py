# expect: pass torch.inference_mode as a decorator, a device log from A.new_empty filled with copy_, ord="fro" spelled out, a per-step read with float()
# hint:
import torch


@torch.inference_mode()
def log_norms_per_step(A, steps):
    X = torch.eye(*A.shape, device=A.device, dtype=A.dtype)
    logged = []
    for step in range(steps):
        X = torch.matmul(A, X)
        norm = torch.linalg.matrix_norm(X, ord="fro")
        logged.append(float(norm))
        X = X / norm
    return logged


@torch.inference_mode()
def log_norms_at_end(A, steps):
    X = torch.eye(*A.shape, device=A.device, dtype=A.dtype)
    log = A.new_empty(steps)  # on A's device, with A's dtype
    for step in range(steps):
        X = torch.matmul(A, X)
        norm = torch.linalg.matrix_norm(X, ord="fro")
        log[step].copy_(norm)
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
