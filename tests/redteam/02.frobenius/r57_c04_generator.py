# expect: pass a lazy generator yields each step's 0-d norm (computed as sqrt of the sum of squares, X updated with torch.mm and in-place div_ on its own tensor); per-step reads each norm as it is yielded, at-end stacks them all
# hint:
import torch


def _norms(A, steps):
    """Yields ||X||_F after each step, as a 0-d tensor on A's device; lazily, one step per next()."""
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    for _ in range(steps):
        X = torch.mm(A, X)  # a new tensor: dividing it in place leaves A alone
        norm = X.square().sum().sqrt()
        yield norm
        X.div_(norm)


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    return [norm.item() for norm in _norms(A, steps)]  # read before the next step is launched


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    return torch.stack(list(_norms(A, steps))).tolist()


answer = (log_norms_per_step, log_norms_at_end)
