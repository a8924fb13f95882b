# expect: fail Both versions call torch.set_default_device(A.device) so that torch.eye lands on A's device, and never restore it: every tensor the caller creates afterwards, anywhere in the process, goes to A's device (a global TorchFunctionMode stays installed).
# hint: (set_default_device|default device|global|process-wide|restore|side effect|leaves? .*set)
import torch


def log_norms_per_step(A, steps):
    torch.set_default_device(A.device)
    X = torch.eye(A.size(0), dtype=A.dtype)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    torch.set_default_device(A.device)
    X = torch.eye(A.size(0), dtype=A.dtype)
    log = torch.zeros(steps, dtype=A.dtype)
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log[i] = norm
        X = X / norm
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
