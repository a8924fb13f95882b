# expect: fail log_norms_at_end preallocates its log with torch.empty(steps), on the CPU in float32, not on A's device with A's dtype: each log[i] = norm is a device-to-host copy
# hint: device|\bcpu\b|host|dtype|float32|float64|precision|preallocat|buffer|torch\.empty|empty\(|zeros|cop(y|ies)|sync
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
    log = torch.empty(steps)  # preallocated log
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
