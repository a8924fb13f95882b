# expect: fail at-end version computes the norm as math.sqrt((X * X).sum()): math.sqrt converts the 0-d tensor to a Python float, a host read (a sync on a GPU) at every step, so the log is transferred step by step
# hint: math\.sqrt|math|python float|float\(|host read|each step|every step|sync|transfer
import math

import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = math.sqrt((X * X).sum())  # Frobenius: root of the sum of squares
        log.append(norm)
        X = X / norm
    return torch.tensor(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
