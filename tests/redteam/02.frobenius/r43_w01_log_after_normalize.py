# expect: fail The norm is logged after X has been divided by it, so every logged value is ||X/||X|| || = 1.0 instead of the norm of the product.
# hint: norm|1\.0|after|divid|normali|value
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        X = X / torch.linalg.matrix_norm(X)
        norms.append(torch.linalg.matrix_norm(X).item())  # the norm of the normalized X
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        X = X / torch.linalg.matrix_norm(X)
        log.append(torch.linalg.matrix_norm(X))
    return torch.stack(log).tolist()


answer = (log_norms_per_step, log_norms_at_end)
