# expect: pass vector_norm of the flattened product written into a preallocated device buffer with copy_, itertools.repeat loop; per-step uses float()
# hint: 
import itertools

import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in itertools.repeat(None, steps):
        X = torch.matmul(A, X)
        norm = torch.linalg.vector_norm(X.reshape(-1))
        log.append(float(norm))
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = A.new_empty(steps)
    for i in range(steps):
        X = torch.matmul(A, X)
        log[i].copy_(torch.linalg.vector_norm(X.reshape(-1)))
        X = X / log[i]
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
