# expect: fail at-end version unrolls the loop two steps per iteration to halve Python's launch overhead, looping steps // 2 times: with an odd number of steps the last norm is missing
# hint: odd|// ?2|pair|unroll|two (steps|at a time)|last (step|norm)|missing|length|one (norm|step) short|returned \d+ norms
import torch


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(norm.item())
        X = X / norm
    return log


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps // 2):  # two steps per iteration: half the Python overhead
        X = A @ X
        n1 = torch.linalg.matrix_norm(X)
        X = A @ (X / n1)
        n2 = torch.linalg.matrix_norm(X)
        X = X / n2
        log += [n1, n2]
    return torch.stack(log).tolist() if log else []


answer = (log_norms_per_step, log_norms_at_end)
