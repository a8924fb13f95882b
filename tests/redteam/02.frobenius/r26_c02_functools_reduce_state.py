# expect: pass the loop written as functools.reduce over range(steps) with an (X, norms) state; norm as torch.linalg.vector_norm of the flattened X; per-step reads inside the step function with .item(); at-end keeps a tuple of 0-d tensors and stacks it once
# hint: 
import functools

import torch


def _run(A, steps, read):
    def step(state, _):
        X, norms = state
        X = A @ X
        norm = torch.linalg.vector_norm(X.flatten())  # same as the Frobenius norm
        return X / norm, norms + (read(norm),)

    start = (torch.eye(A.shape[0], dtype=A.dtype, device=A.device), ())
    return functools.reduce(step, range(steps), start)[1]


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    return list(_run(A, steps, lambda norm: norm.item()))


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    norms = _run(A, steps, lambda norm: norm)  # 0-d tensors, still on A's device
    return torch.stack(norms).tolist() if norms else []


answer = (log_norms_per_step, log_norms_at_end)
