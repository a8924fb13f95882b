# expect: fail both versions recurse once per step: right for small step counts, RecursionError at the chapter's 1000 steps (Python's default limit)
# hint: recurs|stack|depth|1000|large|many steps
import torch


def _run(A, X, steps, log, read):
    if steps == 0:
        return log
    X = A @ X
    norm = torch.linalg.matrix_norm(X)
    log.append(read(norm))
    return _run(A, X / norm, steps - 1, log, read)


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    return _run(A, X, steps, [], lambda t: t.item())


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = _run(A, X, steps, [], lambda t: t)
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
