# expect: pass normalization by torch.nn.functional.normalize on the flattened X (X / max(||X||, eps), the same division for any nonzero X), with the logged norm from torch.linalg.vector_norm; at-end uses torch.stack over a list of 0-d norms and one .tolist()
# hint: 
import torch
import torch.nn.functional as F


def _step(A, X):
    X = A @ X
    norm = torch.linalg.vector_norm(X)  # all entries: the Frobenius norm
    return F.normalize(X.reshape(-1), dim=0).view_as(X), norm


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X, norm = _step(A, X)
        log.append(norm.item())
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X, norm = _step(A, X)
        norms.append(norm)
    return torch.stack(norms).tolist() if norms else []


answer = (log_norms_per_step, log_norms_at_end)
