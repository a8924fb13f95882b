# expect: fail X divided by its largest entry instead of by the logged norm
# hint: divid|normali|max|scale|by the norm|largest
import torch


def log_norms_per_step(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norms.append(torch.linalg.matrix_norm(X).item())
        X = X / X.abs().amax()  # keeps every number finite (|x| <= 1)
    return norms


def log_norms_at_end(A, steps):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = A @ X
        log.append(torch.linalg.matrix_norm(X))
        X = X / X.abs().amax()
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
