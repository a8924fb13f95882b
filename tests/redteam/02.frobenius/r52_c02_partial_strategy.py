# expect: pass one shared loop with a read strategy, the two versions built with functools.partial; norm as sqrt of the sum of squares
# hint:
import functools

import torch


def _run(A, steps, *, per_step):
    X = torch.eye(A.shape[0], dtype=A.dtype, device=A.device)
    log = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        norm = X.square().sum().sqrt()  # the Frobenius norm, spelled out
        log.append(norm.item() if per_step else norm)
        X = X.div(norm)
    if per_step:
        return log
    return [float(v) for v in torch.stack(log).tolist()]  # one transfer; floats already


log_norms_per_step = functools.partial(_run, per_step=True)
log_norms_at_end = functools.partial(_run, per_step=False)
answer = (log_norms_per_step, log_norms_at_end)
