# expect: pass a class with __call__ and functools.partial; Frobenius norm as vector_norm of all entries, no_grad, host float divisor per step
# hint:
import functools

import torch


class NormLogger:
    def __init__(self, read_each_step):
        self.read_each_step = read_each_step

    @torch.no_grad()
    def __call__(self, A, steps):
        X = torch.eye(A.shape[0], device=A.device, dtype=A.dtype)
        host, device_log = [], []
        for _ in range(steps):
            X = torch.mm(A, X)
            norm = torch.linalg.vector_norm(X)  # over all entries: the Frobenius norm
            if self.read_each_step:
                value = norm.item()
                host.append(value)
                X = X / value  # a Python float: the same quotient
            else:
                device_log.append(norm)
                X = X / norm
        return host if self.read_each_step else torch.stack(device_log).tolist()


def _run(A, steps, *, read_each_step):
    return NormLogger(read_each_step)(A, steps)


log_norms_per_step = functools.partial(_run, read_each_step=True)
log_norms_at_end = functools.partial(_run, read_each_step=False)

answer = (log_norms_per_step, log_norms_at_end)
