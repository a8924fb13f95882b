# expect: fail skips the first product (A @ I = A) by starting from X = A, then divides in place (X.div_), which scales the caller's A: norms from step 2 on are wrong and A is changed
# hint: in.?place|mutat|modif|alias|caller|input|A (was )?changed|div_|overwr
import torch


def _norms(A, steps, read):
    log = []
    X = A  # A @ I is A: no need to multiply by the identity
    for step in range(steps):
        if step:
            X = A @ X
        norm = torch.linalg.matrix_norm(X)
        log.append(read(norm))
        X.div_(norm)  # in place: no new tensor each step
    return log


def log_norms_per_step(A, steps):
    """The Frobenius norm after each of `steps` products, each transferred as it is logged."""
    return _norms(A, steps, lambda norm: norm.item())


def log_norms_at_end(A, steps):
    """The same norms, kept on the device and transferred once at the end."""
    return torch.stack(_norms(A, steps, lambda norm: norm.clone())).tolist()


answer = (log_norms_per_step, log_norms_at_end)
