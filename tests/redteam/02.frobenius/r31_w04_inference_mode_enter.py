# expect: fail enters torch.inference_mode() with __enter__() and never exits it, so autograd stays off after it returns
# hint: inference|grad
import torch

_modes = []  # keep the modes alive so they stay entered


def _no_graph():
    _modes.append(torch.inference_mode())
    _modes[-1].__enter__()  # no graph for a log


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    _no_graph()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm.item())
        X = X / norm
    return norms


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    _no_graph()
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    norms = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        norms.append(norm)
        X = X / norm
    return torch.stack(norms).tolist()


answer = (log_norms_per_step, log_norms_at_end)
