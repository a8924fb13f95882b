# expect: pass one loop shared through functools.partial; divides by the Python float; stack, .cpu(), .tolist()
# hint: 
import functools

import torch


def _log_norms(A, steps, *, per_step):
    X = torch.eye(A.size(0), dtype=A.dtype, device=A.device)
    host, device_log = [], []
    for _ in range(steps):
        X = A.mm(X)
        norm = torch.linalg.norm(X)  # 2-D input, no ord: Frobenius
        if per_step:
            value = norm.item()
            host.append(value)
            X = X / value  # already on the host: a Python scalar
        else:
            device_log.append(norm)
            X = X / norm
    if per_step:
        return host
    if not device_log:
        return []
    return torch.stack(device_log).cpu().tolist()  # two reads at the end, under the limit of 3


log_norms_per_step = functools.partial(_log_norms, per_step=True)
log_norms_at_end = functools.partial(_log_norms, per_step=False)
answer = (log_norms_per_step, log_norms_at_end)
