# expect: fail the at-end version skips the division and logs ||A^k|| / ||A^(k-1)|| of unnormalized powers (the same numbers in exact arithmetic): right for a few dozen steps, inf/nan once A^k overflows float32 (about 38 steps for randn(100, 100))
# hint: overflow|inf|nan|finite|normali[sz]|divid|X / norm|many steps|large steps|1000 steps
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
    P = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    powers = [torch.ones((), device=A.device, dtype=A.dtype)]  # step 1 logs ||A @ I|| itself
    for _ in range(steps):
        P = A @ P  # A^k; ||A^k|| / ||A^(k-1)|| is the norm of the normalized product
        powers.append(torch.linalg.matrix_norm(P))
    norms = torch.stack(powers)
    return (norms[1:] / norms[:-1]).tolist()


answer = (log_norms_per_step, log_norms_at_end)
