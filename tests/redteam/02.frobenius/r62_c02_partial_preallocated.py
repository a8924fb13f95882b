# expect: pass functools.partial over one driver that takes a "sink" per step; the at-end sink writes into a log preallocated on A's device with A.new_empty
# hint:
import functools

import torch


def _run(A, steps, *, read_each_step):
    X = torch.eye(A.shape[-1], dtype=A.dtype, device=A.device)
    if read_each_step:
        out = []
    else:
        log = A.new_empty(steps)  # same device and dtype as A
    for i in range(steps):
        X = A @ X
        norm = torch.linalg.matrix_norm(X, ord="fro")
        if read_each_step:
            out.append(norm.item())
        else:
            log[i] = norm  # device to device, no read
        X = X / norm
    return out if read_each_step else log.tolist()


log_norms_per_step = functools.partial(_run, read_each_step=True)
log_norms_per_step.__name__ = "log_norms_per_step"
log_norms_at_end = functools.partial(_run, read_each_step=False)
log_norms_at_end.__name__ = "log_norms_at_end"

answer = (log_norms_per_step, log_norms_at_end)
