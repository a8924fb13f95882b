# expect: pass products with operator.matmul; per-step reads each 0-d norm with norm.tolist() (a 0-d tensor's tolist() is a Python float); at-end joins the 0-d norms with torch.hstack (which makes them 1-d) and transfers once
# hint: 
import operator

import torch
from torch.linalg import matrix_norm as frobenius


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = operator.matmul(A, X)
        norm = frobenius(X)
        log.append(norm.tolist())  # 0-d: a float
        X = operator.truediv(X, norm)
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    if steps == 0:
        return []
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = operator.matmul(A, X)
        norm = frobenius(X)
        log.append(norm)
        X = operator.truediv(X, norm)
    return torch.hstack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
