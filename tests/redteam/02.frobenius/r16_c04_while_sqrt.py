# expect: pass while loop, eye(...).to(A), norm as sqrt of the sum of squares
# hint: 
import torch


def _step(A, X):
    Y = A @ X
    return Y, Y.square().sum().sqrt()  # ||Y||_F, a 0-d tensor on Y's device


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[-1]).to(A)
    out = []
    while len(out) < steps:
        X, norm = _step(A, X)
        out.append(norm.item())
        X = X / norm
    return out


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[-1]).to(A)
    kept, done = [], 0
    while done < steps:
        X, norm = _step(A, X)
        kept.append(norm)
        X = X / norm
        done += 1
    return torch.stack(kept).tolist() if kept else []


answer = (log_norms_per_step, log_norms_at_end)
