# expect: pass
# hint:
import torch


def log_norms_per_step(A, steps):
    X = torch.diag(A.new_ones(A.shape[0]))  # the identity, with A's dtype and device
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, ord="fro", keepdim=True)  # shape (1, 1)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    X = torch.diag(A.new_ones(A.shape[0]))
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, ord="fro", keepdim=True)
        log.append(norm.view(1))
        X = X / norm
    return torch.cat(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
