# expect: pass norm from torch.linalg.norm(X) (ord=None: the 2-norm of the flattened matrix, i.e. Frobenius); X scaled by norm.reciprocal() made out of place, so the logged tensor stays the norm; at-end fills a zeros buffer by index and reads it once
# hint: 
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    out = []
    for _ in range(steps):
        X = A.mm(X)
        norm = torch.linalg.norm(X)
        out.append(norm.item())
        X = X * norm.reciprocal()  # a new 0-d tensor: norm itself unchanged
    return out


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = torch.zeros(steps, dtype=A.dtype, device=A.device)
    for k in range(steps):
        X = A.mm(X)
        norm = torch.linalg.norm(X)
        log[k] = norm
        X = X * norm.reciprocal()
    return log.tolist()


answer = (log_norms_per_step, log_norms_at_end)
