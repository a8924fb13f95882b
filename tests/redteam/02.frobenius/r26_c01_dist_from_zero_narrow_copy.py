# expect: pass Frobenius norm as torch.dist(X, 0-d zero) (the 2-norm of X - 0, flattened); per-step reads with float(norm); at-end writes each norm into a preallocated buffer through log.narrow(0, k, 1).copy_(...) and reads it with the unbound torch.Tensor.tolist
# hint: 
import torch


def _frobenius(X):
    return torch.dist(X, X.new_zeros(()))  # ||X - 0||_2 over all entries


def _start(A):
    return torch.eye(A.size(0), dtype=A.dtype, device=A.device)


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X, log = _start(A), []
    for _ in range(steps):
        X = torch.matmul(A, X)
        norm = _frobenius(X)
        log.append(float(norm))  # one host read per step
        X = torch.div(X, norm)
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = _start(A)
    log = torch.empty(steps, dtype=A.dtype, device=A.device)
    for k in range(steps):
        X = torch.matmul(A, X)
        norm = _frobenius(X)
        log.narrow(0, k, 1).copy_(norm.reshape(1))  # a device-side write
        X = torch.div(X, norm)
    return torch.Tensor.tolist(log)  # the one transfer


answer = (log_norms_per_step, log_norms_at_end)
