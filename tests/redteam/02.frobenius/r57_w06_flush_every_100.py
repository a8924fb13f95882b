# expect: fail the at-end version flushes its log to the host every 100 steps (as for a training loop's "read every N steps"): one read per 100 steps, so more than 3 reads once steps > 300
# hint: host read|transfer|read.*(once|end)|tolist|at most|every|sync|reads
import torch

FLUSH_EVERY = 100


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
    """The same norms, kept on the device and transferred in a few batches."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms, pending = [], []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.append(norm)
        X = X / norm
        if len(pending) == FLUSH_EVERY:  # keep the device log short
            norms.extend(torch.stack(pending).tolist())
            pending = []
    if pending:
        norms.extend(torch.stack(pending).tolist())
    return norms


answer = (log_norms_per_step, log_norms_at_end)
