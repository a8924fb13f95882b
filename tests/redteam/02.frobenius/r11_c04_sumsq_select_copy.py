# expect: pass
# hint:
import torch


def log_norms_per_step(A, steps):
    n = A.shape[0]
    X = torch.eye(n, dtype=A.dtype, device=A.device)
    logged = []
    step = 0
    while step < steps:
        X = torch.matmul(A, X)
        norm = (X * X).sum().sqrt()
        logged.append(norm.tolist())  # a 0-d tensor's tolist() is one Python float
        X = X / norm
        step += 1
    return logged


def log_norms_at_end(A, steps):
    n = A.shape[0]
    X = torch.eye(n, dtype=A.dtype, device=A.device)
    log = torch.zeros(steps, dtype=A.dtype, device=A.device)
    for i in range(steps):
        X = torch.matmul(A, X)
        norm = (X * X).sum().sqrt()
        log.select(0, i).copy_(norm)
        X = X / norm
    return log.cpu().tolist()  # one copy to the host, then the list


answer = (log_norms_per_step, log_norms_at_end)
