# expect: pass
# hint:
# Right: one loop, two functools.partial objects; eye_like via A.new_zeros + fill_diagonal_,
# the norm is X.norm() (Frobenius for a matrix), at-end log is a preallocated device tensor.
import functools

import torch


def _run(A, steps, *, per_step):
    n = A.shape[0]
    X = A.new_zeros(n, n)
    X.fill_diagonal_(1)  # the identity, on A's device and dtype
    norms = [] if per_step else A.new_empty(steps)
    for i in range(steps):
        X = A @ X
        norm = X.norm()  # Frobenius for a 2-D tensor
        if per_step:
            norms.append(norm.item())
        else:
            norms[i] = norm  # a device-side copy, no host read
        X = X / norm
    return norms if per_step else norms.tolist()


log_norms_per_step = functools.partial(_run, per_step=True)
log_norms_per_step.__name__ = "log_norms_per_step"
log_norms_at_end = functools.partial(_run, per_step=False)
log_norms_at_end.__name__ = "log_norms_at_end"

answer = (log_norms_per_step, log_norms_at_end)
