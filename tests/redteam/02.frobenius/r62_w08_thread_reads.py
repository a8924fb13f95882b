# expect: fail the at-end version hands every norm to a background thread that calls .item(): one transfer per step (hidden from a TorchFunctionMode in the calling thread), not one at the end
# hint: thread|background|executor|transfer|once|at the end|per step|every step|item|reads
from concurrent.futures import ThreadPoolExecutor

import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    with ThreadPoolExecutor(max_workers=1) as logger:  # the loop never waits for a read
        pending = []
        for _ in range(steps):
            X = A @ X
            norm = torch.linalg.matrix_norm(X)
            pending.append(logger.submit(norm.item))
            X = X / norm
        return [p.result() for p in pending]


answer = (log_norms_per_step, log_norms_at_end)
