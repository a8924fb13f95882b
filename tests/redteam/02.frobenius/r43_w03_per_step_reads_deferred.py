# expect: fail log_norms_per_step keeps the 0-d norms on the device and calls .item() on each only after the loop, so it makes one read per step in count but transfers nothing as it logs: it is the at-end version in disguise and never synchronizes inside the loop.
# hint: per.step|each step|as you log|in the loop|item|interleav|during
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    pending = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.append(norm)
        X = X / norm
    return [n.item() for n in pending]  # steps reads, all after the last launch


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
