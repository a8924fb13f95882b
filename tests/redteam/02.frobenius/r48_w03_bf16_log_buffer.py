# expect: fail the device log is preallocated in bfloat16 to save memory: each norm rounded to ~3 digits
# hint: bfloat|bf16|dtype|precision|reference|relative|1e-3|differ|round
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
    log = torch.empty(steps, device=A.device, dtype=torch.bfloat16)  # half the bytes of float32
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm  # cast to bfloat16: 8 bits of mantissa
        X = X / norm
    return log.float().tolist()


answer = (log_norms_per_step, log_norms_at_end)
