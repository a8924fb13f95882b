# expect: pass one loop, two functools.partial objects of it (a reader per step, or none); norm with torch.linalg.vector_norm over the whole matrix (= Frobenius); the at-end log is stacked and moved with .cpu().tolist() (2 reads)
# hint:
import functools

import torch


def _log_norms(A, steps, read_each_step):
    X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
    log = []
    for _ in range(steps):
        X = torch.matmul(A, X)
        norm = torch.linalg.vector_norm(X)  # all entries: the Frobenius norm
        log.append(norm.item() if read_each_step else norm)
        X = torch.div(X, norm)
    if read_each_step:
        return log
    return torch.stack(log).cpu().tolist()


log_norms_per_step = functools.partial(_log_norms, read_each_step=True)
log_norms_per_step.__name__ = "log_norms_per_step"  # partial objects accept attributes
log_norms_at_end = functools.partial(_log_norms, read_each_step=False)
log_norms_at_end.__name__ = "log_norms_at_end"

answer = (log_norms_per_step, log_norms_at_end)
