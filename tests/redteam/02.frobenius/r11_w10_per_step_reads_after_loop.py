# expect: fail log_norms_per_step keeps the norms as tensors during the loop and calls .item() on each only after it: steps reads, but none as the norm is logged
# hint: as (it is|you|they are) logged|as you log|(each|every|per) step|inside the loop|in the loop|during|interleav|after the loop|defer|at the end|before the next|between (steps|products)
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    pending = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        pending.append(norm)
        X = X / norm
    return [norm.item() for norm in pending]  # one .item() per norm


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
