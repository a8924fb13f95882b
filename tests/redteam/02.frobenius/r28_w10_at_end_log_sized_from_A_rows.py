# expect: fail log_norms_at_end preallocates its log as torch.empty_like(A[:steps, 0]) to get A's device and dtype; that buffer has min(steps, n) entries, so any call with more steps than A has rows raises IndexError.
# hint: (steps\s*>|more steps than|longer than|size of the log|log'?s (size|length)|IndexError|out of (range|bounds)|index \d+ is out|buffer.*(short|small|size))
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.empty_like(A[:steps, 0])  # a 1-D buffer on A's device, in A's dtype
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
