# expect: pass Per-step version reads with float() and normalizes in place with div_; the at-end version writes each norm into a preallocated log on A's device and reads it once with .tolist().
# hint: 
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    logged = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        logged.append(float(norm))  # one host read per step, as it is logged
        X.div_(norm)  # X is a fresh product: dividing it in place is safe
    return logged


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)  # stays on the device
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm  # a device-side copy, no read
        X.div_(norm)
    return log.tolist()  # the one transfer


answer = (log_norms_per_step, log_norms_at_end)
