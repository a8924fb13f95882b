# expect: pass identity via ones diagonal built with new_zeros/fill_diagonal_, copy_ into a preallocated log, steps=0 safe, norm via linalg.norm(X, 'fro')
# hint: 
import torch

def _identity(A):
    X = A.new_zeros(A.shape)
    X.fill_diagonal_(1.0)
    return X


def log_norms_per_step(A, steps):
    X = _identity(A)
    result = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        n = torch.linalg.norm(X, "fro")
        result.append(n.item())
        X = X / n
    return result


def log_norms_at_end(A, steps):
    X = _identity(A)
    log = A.new_empty(steps)
    for i in range(steps):
        X = torch.matmul(A, X)
        n = torch.linalg.norm(X, "fro")
        log[i].copy_(n)
        X = X / n
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
