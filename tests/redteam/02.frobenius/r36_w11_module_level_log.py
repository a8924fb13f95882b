# expect: fail the at-end log list lives at module level and is never cleared: a second call returns the first call's norms too (the log grows per call)
# hint: second call|state|grow|global|module|length|between calls|clear|reset
import torch

_log = []  # norms kept on the device until the end


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
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        _log.append(norm)
        X = X / norm
    return torch.stack(_log).tolist() if _log else []


answer = (log_norms_per_step, log_norms_at_end)
