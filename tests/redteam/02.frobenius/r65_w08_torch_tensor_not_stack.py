# expect: fail the at-end version builds its result with torch.tensor(list of 0-d tensors), which reads every element to the host: one transfer per norm
# hint: torch\.tensor|stack|each (norm|element)|every (norm|element)|per.element|one (read|transfer) per|\d+ (host )?(reads|transfers)|transfer(red)? once
# Wrong: torch.tensor() copies Python data: given a list of 0-d device tensors it converts each
# one to a number (a transfer each, done inside C++), where torch.stack stays on the device.
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.tensor(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
