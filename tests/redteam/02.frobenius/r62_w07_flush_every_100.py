# expect: fail the at-end version flushes its log to the host every 100 steps: at most 3 reads up to 300 steps, but 10 for 1000 steps (one transfer per 100 steps, not one at the end)
# hint: once|at the end|single transfer|one transfer|too many|reads|transfers|flush|every 100|periodic|sync
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
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    out, pending = [], []
    for step in range(1, steps + 1):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.append(norm)
        X = X / norm
        if step % FLUSH_EVERY == 0:  # read the log every N steps, as on a real job
            out += torch.stack(pending).tolist()
            pending = []
    if pending:
        out += torch.stack(pending).tolist()
    return out


answer = (log_norms_per_step, log_norms_at_end)
