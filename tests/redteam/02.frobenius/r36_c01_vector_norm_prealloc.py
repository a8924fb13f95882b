# expect: pass preallocated device log filled by index, torch.linalg.vector_norm, float() per step
# hint:
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.vector_norm(X)  # the 2-norm of all entries: Frobenius
        norms.append(float(norm))  # one transfer per step
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)  # stays on the device
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.vector_norm(X)
        log[i] = norm  # a device-to-device write, no transfer
        X = X / norm
    return log.tolist()  # the one transfer


answer = (log_norms_per_step, log_norms_at_end)
