# expect: fail at-end version runs the per-step loop in a worker thread and returns its list: every norm is still read with .item() each step (steps host syncs), only hidden from the caller thread's TorchFunctionMode, which is thread-local
# hint: thread|\.item\(\)|item|host read|each step|every step|per.step|synchron|transfer
from concurrent.futures import ThreadPoolExecutor

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
    # run the loop in the background and hand back its log in one go
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(log_norms_per_step, A, steps).result()


answer = (log_norms_per_step, log_norms_at_end)
