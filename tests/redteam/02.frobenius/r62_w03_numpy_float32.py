# expect: fail the at-end version returns numpy.float32 scalars (list(t.cpu().numpy())), not Python floats
# hint: python float|float32|numpy|type|not a float|isinstance|tolist
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm)
        X = X / norm
    return list(torch.stack(log).cpu().numpy())  # one transfer, then a list of the values


answer = (log_norms_per_step, log_norms_at_end)
