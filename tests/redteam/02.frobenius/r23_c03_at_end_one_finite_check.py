# expect: pass at-end version checks the whole log for NaN/inf once after the loop (one bool read) before its one .tolist(): 2 host reads in all, within the prompt's "at most 3"; per-step uses float()
# hint: 
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(float(norm))
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norms.append(torch.linalg.matrix_norm(X))
        X = X / norms[-1]
    log = torch.stack(norms) if norms else A.new_empty(0)
    if not torch.isfinite(log).all():  # one check for the whole run
        raise FloatingPointError("the norms overflowed")
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
